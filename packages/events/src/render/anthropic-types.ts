/**
 * The subset of Anthropic Messages API request types the renderer produces. Defined here because
 * @x/events does not depend on the Anthropic SDK; the shapes match its `MessageParam` blocks.
 */
export interface AnthropicCacheControl {
  type: 'ephemeral';
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicImageSource;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: (AnthropicTextBlock | AnthropicImageBlock)[];
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock;

export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

export interface AnthropicMessagesInput {
  /** Text blocks of every system message, in order. */
  system: AnthropicTextBlock[];
  messages: AnthropicMessageParam[];
}

export interface AnthropicMessagesOptions {
  /** Put `cache_control` on blocks whose part has `cache_prompt` (default false). */
  cacheEnabled?: boolean;
  /** Send images (default false drops them). */
  visionEnabled?: boolean;
}
