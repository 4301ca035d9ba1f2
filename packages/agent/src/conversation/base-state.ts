import { z } from 'zod';
import { conversationStatsSnapshotSchema } from '../llm/metrics.js';
import { type ConversationState, conversationStateSchema } from '../state/conversation-state.js';
import { executionStatusSchema } from '../state/execution-status.js';
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
  persistenceDir: string;
  secretRegistry: Record<string, unknown>;
  /** The reference's serialized HookConfig, when hooks are configured. */
  hookConfig?: Record<string, unknown> | null;
  /** The security analyzer setting (default `'llm'`), written as the reference's `LLMSecurityAnalyzer`. */
  securityAnalyzer?: 'llm' | 'none' | 'custom';
}

export function buildBaseState(input: BaseStateInput): Record<string, unknown> {
  const { state } = input;
  return {
    id: state.id,
    agent: input.agent,
    workspace: { working_dir: input.workspace, kind: 'LocalWorkspace' },
    persistence_dir: input.persistenceDir,
    max_iterations: state.max_iterations,
    stuck_detection: state.stuck_detection,
    execution_status: state.execution_status,
    confirmation_policy: state.confirmation_policy,
    ...((input.securityAnalyzer ?? 'llm') === 'llm' ? { security_analyzer: { kind: 'LLMSecurityAnalyzer' } } : {}),
    activated_knowledge_skills: [],
    activated_path_rules: [],
    invoked_skills: state.invoked_skills ?? [],
    blocked_actions: state.blocked_actions,
    blocked_messages: state.blocked_messages,
    ...(state.last_user_message_id === undefined ? {} : { last_user_message_id: state.last_user_message_id }),
    ...(state.leaf_event_id === undefined ? {} : { leaf_event_id: state.leaf_event_id }),
    head_is_empty: state.head_is_empty,
    stats: state.stats,
    secret_registry: input.secretRegistry,
    tags: {},
    agent_state: { x_state: state, x_security_analyzer: input.securityAnalyzer ?? 'llm' },
    ...(input.hookConfig ? { hook_config: input.hookConfig } : {}),
  };
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
export type BaseStateFile = z.infer<typeof baseStateFileSchema>;

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
  return parsed.data;
}

/** Our checkpointed derived state, when the file was written by us. */
export function checkpointFromBaseState(file: BaseStateFile): ConversationState | undefined {
  const parsed = conversationStateSchema.safeParse(file.agent_state?.x_state);
  return parsed.success ? parsed.data : undefined;
}
