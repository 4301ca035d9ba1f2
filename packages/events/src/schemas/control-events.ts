import { z } from 'zod';
import { errorClassificationSchema } from './common.js';
import { eventSchema } from './event-base.js';

/** Forget events and optionally insert a summary in their place (reference §3.10, §6.1). */
export const condensationSchema = eventSchema(
  'Condensation',
  { source: 'environment' },
  {
    /** A set: order is not significant; duplicates are ignored. */
    forgotten_event_ids: z.array(z.string()).default([]),
    summary: z.string().optional(),
    /** Insertion index of the summary in the view after forgetting. */
    summary_offset: z.number().int().nonnegative().optional(),
    /** Id of the summarizer's LLM response. */
    llm_response_id: z.string(),
  },
);
export type Condensation = z.infer<typeof condensationSchema>;

/** "Please condense now" (reference §3.11). */
export const condensationRequestSchema = eventSchema('CondensationRequest', { source: 'environment' }, {});
export type CondensationRequest = z.infer<typeof condensationRequestSchema>;

/** A change of one conversation-state field, or a full snapshot when `key` is `full_state` (§3.12). */
export const conversationStateUpdateEventSchema = eventSchema(
  'ConversationStateUpdateEvent',
  { source: 'environment' },
  {
    key: z.string(),
    /** Any JSON; `{}` when absent (or null, which the reference's writer omits), as the reference reads it. */
    value: z.unknown().default({}),
  },
);
export type ConversationStateUpdateEvent = z.infer<typeof conversationStateUpdateEventSchema>;

/** A conversation-level failure; not sent to the LLM (reference §3.13). */
export const conversationErrorEventSchema = eventSchema(
  'ConversationErrorEvent',
  {},
  {
    /** Usually an error class name, or `MaxIterationsReached` / `MaxBudgetReached`. */
    code: z.string(),
    detail: z.string(),
    /** Computed from `code` and `detail` when absent (reference §8.9). */
    classification: errorClassificationSchema.optional(),
  },
);
export type ConversationErrorEvent = z.infer<typeof conversationErrorEventSchema>;

/** The user paused the conversation between steps (reference §3.14). */
export const pauseEventSchema = eventSchema('PauseEvent', { source: 'user' }, {});
export type PauseEvent = z.infer<typeof pauseEventSchema>;

/** An in-flight run was cancelled (reference §3.14). */
export const interruptEventSchema = eventSchema('InterruptEvent', { source: 'user' }, {});
export type InterruptEvent = z.infer<typeof interruptEventSchema>;

/** Raw token ids of a completion, when the provider returns them (reference §3.15). */
export const tokenEventSchema = eventSchema(
  'TokenEvent',
  {},
  {
    prompt_token_ids: z.array(z.number().int()),
    response_token_ids: z.array(z.number().int()),
  },
);
export type TokenEvent = z.infer<typeof tokenEventSchema>;

export const hookEventTypeSchema = z.enum([
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'SessionStart',
  'SessionEnd',
  'Stop',
]);

/** A hook ran (reference §3.16). */
export const hookExecutionEventSchema = eventSchema(
  'HookExecutionEvent',
  { source: 'hook' },
  {
    hook_event_type: hookEventTypeSchema,
    hook_command: z.string(),
    tool_name: z.string().optional(),
    success: z.boolean(),
    blocked: z.boolean().default(false),
    exit_code: z.number().int(),
    stdout: z.string().default(''),
    stderr: z.string().default(''),
    reason: z.string().optional(),
    additional_context: z.string().optional(),
    error: z.string().optional(),
    action_id: z.string().optional(),
    message_id: z.string().optional(),
    hook_input: z.record(z.string(), z.unknown()).optional(),
  },
);
export type HookExecutionEvent = z.infer<typeof hookExecutionEventSchema>;

/** A completion log streamed to remote clients (reference §3.17). */
export const llmCompletionLogEventSchema = eventSchema(
  'LLMCompletionLogEvent',
  { source: 'environment' },
  {
    filename: z.string(),
    /** JSON text. */
    log_data: z.string(),
    model_name: z.string().default('unknown'),
    usage_id: z.string().default('default'),
  },
);
export type LLMCompletionLogEvent = z.infer<typeof llmCompletionLogEventSchema>;

/** A token delta; published live, never persisted (reference §3.18). */
export const streamingDeltaEventSchema = eventSchema(
  'StreamingDeltaEvent',
  { source: 'agent' },
  {
    content: z.string().optional(),
    reasoning_content: z.string().optional(),
  },
);
export type StreamingDeltaEvent = z.infer<typeof streamingDeltaEventSchema>;

/** A tool call of an external (ACP) agent (reference §3.19). Carried, never produced here. */
export const acpToolCallEventSchema = eventSchema(
  'ACPToolCallEvent',
  { source: 'agent' },
  {
    tool_call_id: z.string(),
    title: z.string(),
    status: z.string().optional(),
    tool_kind: z.string().optional(),
    raw_input: z.unknown().optional(),
    raw_output: z.unknown().optional(),
    content: z.array(z.unknown()).optional(),
    is_error: z.boolean().default(false),
  },
);
export type ACPToolCallEvent = z.infer<typeof acpToolCallEventSchema>;

/** A failure processing one client frame, sent on that socket only (reference §3.20). */
export const serverErrorEventSchema = eventSchema(
  'ServerErrorEvent',
  {},
  {
    code: z.string(),
    detail: z.string(),
  },
);
export type ServerErrorEvent = z.infer<typeof serverErrorEventSchema>;
