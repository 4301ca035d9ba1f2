import type { Message } from '@x/events';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { TokenUsage } from './metrics.js';

/** A piece of a streamed reply, delivered as it arrives. */
export interface LLMDelta {
  content?: string;
  reasoning_content?: string;
}

export interface LLMRequest {
  /** Chat Completions messages; the caller renders its events (see `toChatCompletionsMessages` in @x/events). */
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionTool[];
  /** Given a callback, the call streams and reports every content/reasoning delta. */
  onDelta?: (delta: LLMDelta) => void;
  signal?: AbortSignal;
}

export interface LLMResponse {
  /** Provider response id (e.g. `chatcmpl-...`); becomes `llm_response_id` on events. */
  id: string;
  /**
   * The assistant message: `content` is one TextContent when there is text, else empty; `tool_calls`
   * (origin "completion") when present; `reasoning_content` when the provider returns one.
   */
  message: Message;
  finishReason: string | null;
  usage: TokenUsage | null;
  /** Cost in dollars from the configured pricing; 0 when unknown. */
  cost: number;
  latencySeconds: number;
}

/** A chat model. `complete` raises a typed `LLMError` subclass on failure. */
export interface LLM {
  readonly model: string;
  /** Key of this LLM's metrics in `ConversationStats.usage_to_metrics` ("default" unless configured). */
  readonly usageId: string;
  /** True for the offline model, which needs no network and no key. */
  readonly offline: boolean;
  complete(request: LLMRequest): Promise<LLMResponse>;
}
