import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { conversationStatsSnapshotSchema } from '../llm/metrics.js';
import { type ConversationState, conversationStateSchema } from '../state/conversation-state.js';
import { executionStatusSchema } from '../state/execution-status.js';

/**
 * The fields of base_state.json that x writes from its derived state (`buildBaseState`), each with how the file's
 * value is read back. x writes them in the same file as its checkpoint (`agent_state.x_state`), so while x is the
 * last writer each equals the checkpoint's. The reference, continuing the conversation, rewrites them (its status,
 * its stats, a policy or an iteration limit it was given, a hook block it consumed) and keeps `agent_state` as it
 * found it: a field that no longer equals the checkpoint's is one the reference changed after it.
 */
const checkpointedFields = {
  execution_status: executionStatusSchema,
  confirmation_policy: z.looseObject({ kind: z.string() }),
  max_iterations: z.number().int().positive(),
  stuck_detection: z.boolean(),
  // Read in the snapshot form x keeps: the per-response lists the reference adds are not part of x's state.
  stats: conversationStatsSnapshotSchema,
  blocked_actions: z.record(z.string(), z.string()),
  blocked_messages: z.record(z.string(), z.string()),
} as const;

type CheckpointedField = keyof typeof checkpointedFields;
const fieldNames = Object.keys(checkpointedFields) as CheckpointedField[];

/** What base_state.json says that differs from what x wrote with its checkpoint, field by field. */
export interface ChangedSinceCheckpoint {
  /** The derived-state fields the file holds another value of: they win over the checkpoint and the events' fold. */
  state: Partial<Pick<ConversationState, CheckpointedField>>;
  /** HEAD as the file records it, when it is not the checkpoint's (the reference navigated since). */
  head?: { leaf: string | undefined; empty: boolean };
  /** The security analyzer, when the reference switched it on (`'llm'`) or off (`'none'`) since x wrote the file. */
  securityAnalyzer?: 'llm' | 'none';
}

/** Whether anything changed since the checkpoint (then the file won: x must checkpoint before it appends). */
export function hasChanges(changed: ChangedSinceCheckpoint): boolean {
  return Object.keys(changed.state).length > 0 || changed.head !== undefined || changed.securityAnalyzer !== undefined;
}

/** x's checkpoint in a base_state.json (its parsed JSON), when x wrote one. */
export function checkpointInBaseState(file: unknown): ConversationState | undefined {
  const parsed = conversationStateSchema.safeParse(objectOrUndefined(objectOrUndefined(file)?.agent_state)?.x_state);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The fields of a base_state.json (its parsed JSON) that were changed after x wrote `checkpoint` into it: those
 * whose value is not the one x wrote from the checkpoint. A field the file lacks, or holds in a form x cannot read,
 * is taken as unchanged (the checkpoint's stays).
 */
export function changedSinceCheckpoint(file: unknown, checkpoint: ConversationState): ChangedSinceCheckpoint {
  const json = objectOrUndefined(file) ?? {};
  const state: Record<string, unknown> = {};
  for (const name of fieldNames) {
    if (json[name] === undefined) continue;
    const parsed = checkpointedFields[name].safeParse(json[name]);
    if (parsed.success && !isDeepStrictEqual(parsed.data, checkpoint[name])) state[name] = parsed.data;
  }
  const changed: ChangedSinceCheckpoint = { state: state as ChangedSinceCheckpoint['state'] };
  const head = headChange(json, checkpoint);
  if (head !== undefined) changed.head = head;
  const analyzer = analyzerChange(json);
  if (analyzer !== undefined) changed.securityAnalyzer = analyzer;
  return changed;
}

/** x writes HEAD in the reference's fields too: a file whose HEAD is another was navigated since. */
function headChange(json: Record<string, unknown>, checkpoint: ConversationState): ChangedSinceCheckpoint['head'] {
  if (json.leaf_event_id === undefined) return undefined;
  const leaf = typeof json.leaf_event_id === 'string' ? json.leaf_event_id : undefined;
  const empty = json.head_is_empty === true;
  return leaf === checkpoint.leaf_event_id && empty === checkpoint.head_is_empty ? undefined : { leaf, empty };
}

/**
 * x writes the reference's `security_analyzer` exactly when its own setting (`agent_state.x_security_analyzer`) is
 * `'llm'`: a file that has one while x's setting is another, or has none while it is `'llm'`, was changed since.
 */
function analyzerChange(json: Record<string, unknown>): 'llm' | 'none' | undefined {
  const ours = objectOrUndefined(json.agent_state)?.x_security_analyzer;
  if (ours !== 'llm' && ours !== 'none' && ours !== 'custom') return undefined;
  const recorded = objectOrUndefined(json.security_analyzer) !== undefined;
  if (recorded === (ours === 'llm')) return undefined;
  return recorded ? 'llm' : 'none';
}

function objectOrUndefined(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
