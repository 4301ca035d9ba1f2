import { z } from 'zod';
import { conversationStatsSnapshotSchema } from '../llm/metrics.js';
import { activeAgentSchema, escalationSchema } from './control-state.js';
import { executionStatusSchema } from './execution-status.js';
import { markValidatedStats } from './validated-stats.js';

export const pendingActionSchema = z.object({
  action_id: z.string(),
  tool_call_id: z.string(),
  tool_name: z.string(),
});
export type PendingAction = z.infer<typeof pendingActionSchema>;

/** One item of the task tracker's list, as its observations carry it (reference TaskItem). */
export const stateTaskItemSchema = z.object({
  title: z.string(),
  notes: z.string().default(''),
  status: z.enum(['todo', 'in_progress', 'done']).default('todo'),
});

/**
 * The state of a conversation that is derived from its events (see `applyEvent`). Field names are the
 * reference's ConversationState/ConversationInfo keys, plus the derived bookkeeping it keeps elsewhere.
 */
export const conversationStateSchema = z.object({
  /** Conversation id, hyphenated UUID. */
  id: z.string(),
  execution_status: executionStatusSchema,
  /** `{ kind: 'NeverConfirm' }`, `{ kind: 'AlwaysConfirm' }` or `{ kind: 'ConfirmRisky', ... }`. */
  confirmation_policy: z.looseObject({ kind: z.string() }),
  /** Per-run iteration limit. */
  max_iterations: z.number().int().positive(),
  stuck_detection: z.boolean(),
  /** Accumulated usage and cost per LLM usage id, in the snapshot form (no per-response lists). */
  stats: conversationStatsSnapshotSchema,
  /** Executable ActionEvents that have no observation, rejection or error yet, oldest first (§8.4). */
  pending_actions: z.array(pendingActionSchema),
  /** Number of LLM responses the agent has acted on (tool-call batches and replies). */
  iteration: z.number().int().nonnegative(),
  /** Number of events applied to this state: the state is the one after event `event_count - 1`. */
  event_count: z.number().int().nonnegative(),
  last_user_message_id: z.string().optional(),
  /** Response id of the last agent LLM response seen (to count iterations once per batch). */
  last_llm_response_id: z.string().optional(),
  title: z.string().optional(),
  /** Error ids the action-error nudge has already answered (stuck detection, reference §10). */
  nudged_error_ids: z.array(z.string()).default([]),
  /**
   * HEAD of the conversation tree (reference §7.7): the parent of the next appended event. Every event
   * but a ConversationStateUpdateEvent moves it; `navigateTo` moves it back. Absent in an empty log.
   */
  leaf_event_id: z.string().optional(),
  /** A deliberately empty HEAD (`navigateTo(null)`): the next event starts a new root. */
  head_is_empty: z.boolean().default(false),
  /** Actions blocked by a PreToolUse hook, action id → reason (reference `blocked_actions`). */
  blocked_actions: z.record(z.string(), z.string()).default({}),
  /** User messages blocked by a UserPromptSubmit hook, message id → reason (reference `blocked_messages`). */
  blocked_messages: z.record(z.string(), z.string()).default({}),
  /** orxhestra's session state: a key/value map `state_delta` updates change (conversation-wide). */
  session_state: z.record(z.string(), z.unknown()).optional(),
  /** The latest version of each artifact (`artifact_delta` updates). */
  artifacts: z.record(z.string(), z.number().int().positive()).optional(),
  /** Skills the agent invoked with `invoke_skill` (reference `invoked_skills`), in order, each once. */
  invoked_skills: z.array(z.string()).optional(),
  /** The task tracker's list, as its last observation on this branch left it; absent before the first. */
  task_list: z.array(stateTaskItemSchema).optional(),
  /** The agent in control (`transfer_to_agent`); absent: the agent the conversation was created with. */
  active_agent: activeAgentSchema.optional(),
  /** The last escalation of a sub-agent (or of this conversation's agent, in a child) that stopped a run. */
  escalation: escalationSchema.optional(),
});
export type ConversationState = z.infer<typeof conversationStateSchema>;

export interface InitialStateOptions {
  id: string;
  maxIterations?: number;
  stuckDetection?: boolean;
  confirmationPolicy?: ConversationState['confirmation_policy'];
}

/**
 * A fresh empty stats snapshot, marked as its own parse (`markValidatedStats`): the first response's stats update,
 * built from it, is then taken by the fold as it is, as every later one is, instead of a first parse of the nested
 * stats schema in the first step. Held to the schema's parse by apply-event.test.ts.
 */
function emptyStats(): ConversationState['stats'] {
  const stats: ConversationState['stats'] = { usage_to_metrics: {} };
  markValidatedStats(stats);
  return stats;
}

export function initialConversationState(options: InitialStateOptions): ConversationState {
  return {
    id: options.id,
    execution_status: 'idle',
    confirmation_policy: options.confirmationPolicy ?? { kind: 'NeverConfirm' },
    max_iterations: options.maxIterations ?? 500,
    stuck_detection: options.stuckDetection ?? true,
    stats: emptyStats(),
    pending_actions: [],
    iteration: 0,
    event_count: 0,
    nudged_error_ids: [],
    head_is_empty: false,
    blocked_actions: {},
    blocked_messages: {},
  };
}
