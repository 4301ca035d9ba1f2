import { z } from 'zod';
import { setOwnEntry } from '../internal/own-entries.js';
import { conversationStatsSnapshotSchema } from '../llm/metrics.js';
import type { ConversationState } from '../state/conversation-state.js';
import { executionStatusSchema } from '../state/execution-status.js';
import { checkpointInBaseState } from './changed-since-checkpoint.js';
import { CorruptConversationError } from './errors/corrupt-conversation-error.js';

/**
 * base_state.json: the reference's ConversationState minus events (§7.6), so either implementation can
 * open the directory. Two deliberate differences keep it constant-size and cheap to rewrite: `stats`
 * is written in the snapshot form (no per-response lists; the reference fills missing lists with `[]`),
 * and our derived state (with the number of events it covers) rides in `agent_state.x_state`, a
 * free-form field the reference preserves. Resuming reads this file and folds only the events after
 * `x_state.event_count`, instead of reading the whole log. The tree HEAD (`leaf_event_id`,
 * `head_is_empty`) and the hook-blocked maps are written in the reference's own fields.
 */
export interface BaseStateInput {
  state: ConversationState;
  agent: Record<string, unknown>;
  workspace: string;
  /** The conversation's own directory (the store's root joined with `<id as 32 hex>`), as the reference records it. */
  persistenceDir: string;
  secretRegistry: Record<string, unknown>;
  /** The reference's serialized HookConfig, when hooks are configured. */
  hookConfig?: Record<string, unknown> | null;
  /** The skills activated in the conversation (after the recorded ones, each once). */
  activatedSkills?: readonly string[];
  /** The security analyzer setting (default `'llm'`), written as the reference's `LLMSecurityAnalyzer`. */
  securityAnalyzer?: 'llm' | 'none' | 'custom';
  /**
   * The base_state.json the conversation was opened from (as JSON), when there was one. The fields of the reference's
   * ConversationState that x does not manage (tags, activated skills and path rules, the reference's own
   * `agent_state` keys, its hook config and security analyzer, a remote workspace's settings, fields of newer
   * versions) are written back as they were, so opening a conversation in x loses nothing the reference recorded.
   */
  recorded?: Readonly<Record<string, unknown>> | undefined;
}

export function buildBaseState(input: BaseStateInput): Record<string, unknown> {
  const { state } = input;
  const recorded = input.recorded ?? {};
  const setting = input.securityAnalyzer ?? 'llm';
  // Any analyzer the reference recorded stands for x's LLM analyzer (see `persistedAnalyzer`): keep its settings.
  const recordedAnalyzer = objectOrUndefined(recorded.security_analyzer);
  const recordedWorkspace = objectOrUndefined(recorded.workspace);
  const hookConfig = input.hookConfig ?? objectOrUndefined(recorded.hook_config);
  const json: Record<string, unknown> = {
    id: state.id,
    agent: input.agent,
    // A workspace recorded for the same directory (a remote one, with its own settings) is the same workspace.
    workspace:
      recordedWorkspace?.working_dir === input.workspace
        ? recordedWorkspace
        : { working_dir: input.workspace, kind: 'LocalWorkspace' },
    persistence_dir: input.persistenceDir,
    max_iterations: state.max_iterations,
    stuck_detection: state.stuck_detection,
    execution_status: state.execution_status,
    confirmation_policy: state.confirmation_policy,
    ...(setting === 'llm' ? { security_analyzer: recordedAnalyzer ?? { kind: 'LLMSecurityAnalyzer' } } : {}),
    activated_knowledge_skills: withActivated(stringList(recorded.activated_knowledge_skills), input.activatedSkills),
    activated_path_rules: stringList(recorded.activated_path_rules),
    invoked_skills: withActivated(stringList(recorded.invoked_skills), state.invoked_skills),
    blocked_actions: state.blocked_actions,
    blocked_messages: state.blocked_messages,
    ...(state.last_user_message_id === undefined ? {} : { last_user_message_id: state.last_user_message_id }),
    ...(state.leaf_event_id === undefined ? {} : { leaf_event_id: state.leaf_event_id }),
    head_is_empty: state.head_is_empty,
    stats: withRecordedLists(state.stats, recorded.stats),
    secret_registry: input.secretRegistry,
    tags: objectOrUndefined(recorded.tags) ?? {},
    agent_state: { ...objectOrUndefined(recorded.agent_state), x_state: state, x_security_analyzer: setting },
    ...(hookConfig ? { hook_config: hookConfig } : {}),
  };
  // Fields x does not know (a newer reference's) follow, unchanged: whatever their name (`constructor`, `__proto__`
  // are fields like any other in a JSON file, not members of the object written).
  for (const [key, value] of Object.entries(recorded)) {
    if (!Object.hasOwn(json, key) && !knownFields.has(key) && value !== null) setOwnEntry(json, key, value);
  }
  return json;
}

/**
 * Recorded fields x computes itself, or leaves out on purpose, so they are never copied from the recorded file: the
 * security analyzer when it is off, HEAD and the last user message when they are unset (an empty tree).
 */
const knownFields = new Set(['security_analyzer', 'last_user_message_id', 'leaf_event_id', 'hook_config']);

/** The per-response lists x does not keep (it writes the snapshot form of the stats). */
const metricsLists = ['costs', 'response_latencies', 'token_usages'] as const;

/**
 * x's stats (the snapshot form), with the per-response lists the reference recorded for each usage id kept as they
 * were (x appends nothing to them), and usage ids only the recorded file has, kept whole.
 */
function withRecordedLists(stats: ConversationState['stats'], recordedStats: unknown): unknown {
  const recordedUsage = objectOrUndefined(objectOrUndefined(recordedStats)?.usage_to_metrics);
  if (recordedUsage === undefined) return stats;
  const usage: Record<string, unknown> = { ...recordedUsage };
  for (const [usageId, metrics] of Object.entries(stats.usage_to_metrics)) {
    const before = objectOrUndefined(recordedUsage[usageId]);
    const lists = metricsLists.filter((key) => Array.isArray(before?.[key])).map((key) => [key, before?.[key]]);
    usage[usageId] = lists.length === 0 ? metrics : { ...metrics, ...Object.fromEntries(lists) };
  }
  return { ...stats, usage_to_metrics: usage };
}

/**
 * The recorded list as it was (the reference's may repeat a name: its lists of activated and invoked skills are plain
 * lists), then the names x activated or invoked that it lacks.
 */
function withActivated(recorded: string[], activated: readonly string[] = []): string[] {
  const known = new Set(recorded);
  return [...recorded, ...activated.filter((name) => !known.has(name))];
}

function objectOrUndefined(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

const baseStateFileSchema = z.looseObject({
  id: z.string(),
  agent: z.record(z.string(), z.unknown()).optional(),
  workspace: z.looseObject({ working_dir: z.string().optional() }).optional(),
  max_iterations: z.number().int().positive().optional(),
  stuck_detection: z.boolean().optional(),
  execution_status: executionStatusSchema.optional(),
  confirmation_policy: z.looseObject({ kind: z.string() }).optional(),
  last_user_message_id: z.string().nullish(),
  leaf_event_id: z.string().nullish(),
  head_is_empty: z.boolean().optional(),
  blocked_actions: z.record(z.string(), z.string()).optional(),
  blocked_messages: z.record(z.string(), z.string()).optional(),
  security_analyzer: z.looseObject({ kind: z.string() }).nullish(),
  stats: conversationStatsSnapshotSchema.optional(),
  secret_registry: z.record(z.string(), z.unknown()).optional(),
  agent_state: z.record(z.string(), z.unknown()).optional(),
});
/** The fields x reads, parsed, and the file's JSON as written (`raw`, every field, for `recorded`). */
export type BaseStateFile = z.infer<typeof baseStateFileSchema> & { readonly raw: Readonly<Record<string, unknown>> };

export function parseBaseState(text: string, where: string): BaseStateFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new CorruptConversationError(where, `base_state.json is not valid JSON (${(cause as Error).message})`, {
      cause,
    });
  }
  const parsed = baseStateFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CorruptConversationError(
      where,
      `base_state.json: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
    );
  }
  return { ...parsed.data, raw: json as Record<string, unknown> };
}

/** Our checkpointed derived state, when the file was written by us. */
export function checkpointFromBaseState(file: BaseStateFile): ConversationState | undefined {
  return checkpointInBaseState(file.raw);
}
