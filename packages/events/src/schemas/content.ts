import { z } from 'zod';

/** Plain text content part. Key order follows the reference (`cache_prompt` first). */
export const textContentSchema = z.object({
  /** Prompt-caching marker (Anthropic `cache_control: ephemeral`). */
  cache_prompt: z.boolean().default(false),
  type: z.literal('text'),
  text: z.string(),
});
export type TextContent = z.infer<typeof textContentSchema>;

/** Image content part: http(s) URLs or `data:` URIs. */
export const imageContentSchema = z.object({
  cache_prompt: z.boolean().default(false),
  type: z.literal('image'),
  image_urls: z.array(z.string()),
});
export type ImageContent = z.infer<typeof imageContentSchema>;

export const contentPartSchema = z.discriminatedUnion('type', [textContentSchema, imageContentSchema]);
export type ContentPart = z.infer<typeof contentPartSchema>;

/**
 * Anthropic extended-thinking block. As the reference's ThinkingBlock: `type` defaults to `'thinking'` and the
 * signature is optional (a block from another provider or an imported chat has none; the reference writes none then,
 * and sends `"signature": null` in the Chat Completions messages).
 */
export const thinkingBlockSchema = z.object({
  type: z.literal('thinking').default('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});
export type ThinkingBlock = z.infer<typeof thinkingBlockSchema>;

/** Anthropic redacted-thinking block (opaque data that must be echoed back). `type` defaults as the reference's. */
export const redactedThinkingBlockSchema = z.object({
  type: z.literal('redacted_thinking').default('redacted_thinking'),
  data: z.string(),
});
export type RedactedThinkingBlock = z.infer<typeof redactedThinkingBlockSchema>;

/**
 * Either block, tried in the reference's order: its `thinking_blocks` is a plain union (no discriminator), so a block
 * without a `type` is a thinking block when it has a `thinking` text, else a redacted one when it has `data`.
 */
export const anyThinkingBlockSchema = z.union([thinkingBlockSchema, redactedThinkingBlockSchema]);
export type AnyThinkingBlock = z.infer<typeof anyThinkingBlockSchema>;

/** OpenAI Responses reasoning item. `encrypted_content` is kept and sent back (never logged). */
export const reasoningItemSchema = z.object({
  id: z.string().optional(),
  summary: z.array(z.string()).default([]),
  content: z.array(z.string()).optional(),
  encrypted_content: z.string().optional(),
  status: z.string().optional(),
});
export type ReasoningItem = z.infer<typeof reasoningItemSchema>;

/** A tool call as the LLM made it. `arguments` is JSON text, not an object. */
export const messageToolCallSchema = z.object({
  /** Canonical tool-call id; links an action to its observation. */
  id: z.string(),
  /** Original Responses `function_call.id`, echoed verbatim on replay. */
  responses_item_id: z.string().optional(),
  name: z.string(),
  /** JSON text of the arguments. */
  arguments: z.string(),
  /** Which API produced the call. */
  origin: z.enum(['completion', 'responses']),
});
export type MessageToolCall = z.infer<typeof messageToolCallSchema>;

export const messageRoleSchema = z.enum(['user', 'system', 'assistant', 'tool']);
export type MessageRole = z.infer<typeof messageRoleSchema>;

/** Input `null` → `[]`, a plain string → one text part (the reference's coercions). */
const messageContentSchema = z.preprocess(
  (value) => (typeof value === 'string' ? [{ type: 'text', text: value }] : (value ?? [])),
  z.array(contentPartSchema),
);

/** An LLM message. Unknown keys are dropped, as the reference's `extra="ignore"`. */
export const messageSchema = z.object({
  role: messageRoleSchema,
  content: messageContentSchema,
  tool_calls: z.array(messageToolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  /** Tool name on tool results. */
  name: z.string().optional(),
  /** Provider-normalized reasoning text. */
  reasoning_content: z.string().optional(),
  thinking_blocks: z.array(anyThinkingBlockSchema).default([]),
  responses_reasoning_item: reasoningItemSchema.optional(),
});
export type Message = z.infer<typeof messageSchema>;
