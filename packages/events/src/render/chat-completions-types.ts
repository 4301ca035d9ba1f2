import type {
  ChatCompletionContentPartImage,
  ChatCompletionContentPartText,
  ChatCompletionMessageFunctionToolCall,
} from './openai-wire-types.js';

/** Prompt-caching marker understood by Anthropic-compatible Chat Completions gateways (LiteLLM). */
export interface ChatCacheControl {
  type: 'ephemeral';
}

export type ChatTextPart = ChatCompletionContentPartText & { cache_control?: ChatCacheControl };
export type ChatImagePart = ChatCompletionContentPartImage & { cache_control?: ChatCacheControl };
export type ChatContentPart = ChatTextPart | ChatImagePart;

interface ChatMessageBase {
  /** Sent only with `sendReasoningContent` (needed by e.g. kimi-k2-thinking). */
  reasoning_content?: string;
}

export interface ChatSystemMessage extends ChatMessageBase {
  role: 'system';
  content: string | ChatContentPart[];
}

export interface ChatUserMessage extends ChatMessageBase {
  role: 'user';
  content: string | ChatContentPart[];
}

/**
 * A thinking block as the reference sends it (its `model_dump()`): a thinking block always has its `signature` key,
 * `null` when the block has none (one from another provider or an imported chat).
 */
export type ChatThinkingBlock =
  | { type: 'thinking'; thinking: string; signature: string | null }
  | { type: 'redacted_thinking'; data: string };

export interface ChatAssistantMessage extends ChatMessageBase {
  role: 'assistant';
  /** Absent on a tool-call turn whose text is blank. */
  content?: string | ChatContentPart[];
  tool_calls?: ChatCompletionMessageFunctionToolCall[];
  /** Anthropic extended-thinking blocks, passed through by LiteLLM-style gateways (list form only). */
  thinking_blocks?: ChatThinkingBlock[];
}

export interface ChatToolMessage extends ChatMessageBase {
  role: 'tool';
  content: string | ChatContentPart[];
  tool_call_id?: string;
  /** The tool's name (the reference always sends it with `tool_call_id`). */
  name?: string;
  /** Message-level cache marker: cache_control on tool-result parts is moved here. */
  cache_control?: ChatCacheControl;
}

/**
 * One Chat Completions message as the reference sends it: the OpenAI SDK's message param shapes plus
 * the keys OpenAI-compatible gateways accept (`cache_control`, `thinking_blocks`, `reasoning_content`,
 * `name` on tool messages, images outside user messages). Pass to the OpenAI SDK with
 * `as ChatCompletionMessageParam[]`.
 */
export type ChatCompletionsMessage = ChatSystemMessage | ChatUserMessage | ChatAssistantMessage | ChatToolMessage;

export interface ChatCompletionsOptions {
  /**
   * Prompt caching is on (default false): selects the list form, like vision and function calling. The list form
   * marks every part whose `cache_prompt` is set with `cache_control` whatever this says, as the reference does.
   */
  cacheEnabled?: boolean;
  /** Send image parts (default false: images are dropped). */
  visionEnabled?: boolean;
  /** Native tool calling (default true). Any of cache/vision/function calling selects the list form. */
  functionCallingEnabled?: boolean;
  /** Always send content as one string (texts joined with "\n"), for providers without list content. */
  forceStringSerializer?: boolean;
  /** Send `reasoning_content` when non-empty (default false). */
  sendReasoningContent?: boolean;
}
