import { z } from 'zod';
import {
  actionSchema,
  criticResultSchema,
  errorClassificationSchema,
  observationSchema,
  securityRiskSchema,
  toolDefinitionSchema,
  UNKNOWN_CLASSIFICATION,
} from './common.js';
import {
  anyThinkingBlockSchema,
  messageSchema,
  messageToolCallSchema,
  reasoningItemSchema,
  textContentSchema,
} from './content.js';
import { eventSchema } from './event-base.js';

/** The system prompt and the tools offered to the LLM (reference §3.3). */
export const systemPromptEventSchema = eventSchema(
  'SystemPromptEvent',
  { source: 'agent' },
  {
    system_prompt: textContentSchema,
    tools: z.array(toolDefinitionSchema),
    /** Per-conversation context (secrets, repo info, dates); sent as a second system block. */
    dynamic_context: textContentSchema.optional(),
  },
);
export type SystemPromptEvent = z.infer<typeof systemPromptEventSchema>;

/** A message from the user, an agent reply, or a framework nudge (reference §3.4). */
export const messageEventSchema = eventSchema(
  'MessageEvent',
  {},
  {
    llm_message: messageSchema,
    /** Completion/response id when produced by the agent. */
    llm_response_id: z.string().optional(),
    activated_skills: z.array(z.string()).default([]),
    /** Extra text appended to the message content when sent to the LLM. */
    extended_content: z.array(textContentSchema).default([]),
    sender: z.string().optional(),
    critic_result: criticResultSchema.optional(),
  },
);
export type MessageEvent = z.infer<typeof messageEventSchema>;

/** One tool call of an LLM response (reference §3.5). Parallel calls share `llm_response_id`. */
export const actionEventSchema = eventSchema(
  'ActionEvent',
  { source: 'agent' },
  {
    /** Text of the LLM turn; only the first action of a parallel batch carries it. */
    thought: z.array(textContentSchema),
    reasoning_content: z.string().optional(),
    thinking_blocks: z.array(anyThinkingBlockSchema).default([]),
    responses_reasoning_item: reasoningItemSchema.optional(),
    /** The validated action; absent when the call was not executable (unknown tool, bad arguments). */
    action: actionSchema.optional(),
    tool_name: z.string(),
    tool_call_id: z.string(),
    /** The call as it is replayed to the LLM. */
    tool_call: messageToolCallSchema,
    llm_response_id: z.string(),
    security_risk: securityRiskSchema.default('UNKNOWN'),
    critic_result: criticResultSchema.optional(),
    /** About ten words describing the action. */
    summary: z.string().optional(),
  },
);
export type ActionEvent = z.infer<typeof actionEventSchema>;

/** A tool's result (reference §3.6). */
export const observationEventSchema = eventSchema(
  'ObservationEvent',
  { source: 'environment' },
  {
    tool_name: z.string(),
    tool_call_id: z.string(),
    observation: observationSchema,
    /** Id of the ActionEvent this answers. */
    action_id: z.string(),
    extended_content: z.array(textContentSchema).default([]),
  },
);
export type ObservationEvent = z.infer<typeof observationEventSchema>;

/** A pending action the user (or a hook) refused (reference §3.7). */
export const userRejectObservationSchema = eventSchema(
  'UserRejectObservation',
  { source: 'environment' },
  {
    tool_name: z.string(),
    tool_call_id: z.string(),
    rejection_reason: z.string().default('User rejected the action'),
    rejection_source: z.enum(['user', 'hook']).default('user'),
    /** Written after the rejection fields by the reference (appendix §12). */
    action_id: z.string(),
  },
);
export type UserRejectObservation = z.infer<typeof userRejectObservationSchema>;

/** A scaffold error answering a tool call (reference §3.8). Matched to actions by `tool_call_id`. */
export const agentErrorEventSchema = eventSchema(
  'AgentErrorEvent',
  { source: 'agent' },
  {
    tool_name: z.string(),
    tool_call_id: z.string(),
    error: z.string(),
    classification: errorClassificationSchema.default(UNKNOWN_CLASSIFICATION),
  },
);
export type AgentErrorEvent = z.infer<typeof agentErrorEventSchema>;

/** A summary of forgotten events, synthesized by the View; never stored (reference §3.9). */
export const condensationSummaryEventSchema = eventSchema(
  'CondensationSummaryEvent',
  { source: 'environment' },
  { summary: z.string() },
);
export type CondensationSummaryEvent = z.infer<typeof condensationSummaryEventSchema>;
