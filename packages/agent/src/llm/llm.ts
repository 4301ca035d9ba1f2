import type { Message } from '@x/events';
import type { TokenUsage } from './metrics.js';
import type { Pricing } from './pricing.js';

/** A piece of a streamed reply, delivered as it arrives (the same on every provider). */
export interface LLMDelta {
  content?: string;
  /** Reasoning / thinking text (Anthropic thinking, Responses reasoning summaries, Gemini thoughts). */
  reasoning_content?: string;
}

/** A function tool offered to the model, in the provider-neutral (Chat Completions) shape. */
export interface LLMTool {
  type: 'function';
  function: { name: string; description: string; parameters: object };
}

/** A Message, or its short form: `content` may be a plain string and `thinking_blocks` may be left out. */
export type LLMMessage =
  | Message
  | (Omit<Message, 'content' | 'thinking_blocks'> & {
      content: string | Message['content'];
      thinking_blocks?: Message['thinking_blocks'];
    });

export interface LLMRequest {
  /**
   * The conversation as provider-neutral messages (`eventsToMessages` in @x/events); each provider
   * renders them for its own API, thinking blocks and reasoning items included.
   */
  messages: LLMMessage[];
  tools?: LLMTool[];
  /** Given a callback, the call streams and reports every content/reasoning delta. */
  onDelta?: (delta: LLMDelta) => void;
  signal?: AbortSignal;
}

/**
 * Why the model stopped, in the Chat Completions vocabulary every provider is mapped to: `stop` (end
 * of turn, stop sequence), `tool_calls`, `length` (output limit), `content_filter` (refusal, safety).
 */
export type LLMFinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter';

export interface LLMResponse {
  /** Provider response id (e.g. `chatcmpl-...`, `msg_...`, `resp_...`); becomes `llm_response_id` on events. */
  id: string;
  /**
   * The assistant message: `content` is one TextContent when there is text, else empty; `tool_calls`
   * when present; `reasoning_content`, `thinking_blocks` and `responses_reasoning_item` when the
   * provider returns them (they are sent back on the next turn).
   */
  message: Message;
  /** The provider's stop reason mapped to `LLMFinishReason` (null when the provider gave none). */
  finishReason: LLMFinishReason | string | null;
  /** The provider's own stop reason, unchanged (e.g. Anthropic `end_turn`, Gemini `MAX_TOKENS`). */
  providerFinishReason?: string | null;
  usage: TokenUsage | null;
  /** Cost in dollars from the configured pricing or the price table; 0 when unknown. */
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
  /** Which wire protocol it speaks: `openai`, `openai-responses`, `anthropic`, `gemini`, `offline`... */
  readonly provider?: string;
  /**
   * The prices this LLM's cost is computed at when it was given its own (`pricing` in its config); absent, the
   * price table's (`pricingFor(model)`). A money budget asks it to tell a model of unknown cost.
   */
  readonly pricing?: Pricing;
  complete(request: LLMRequest): Promise<LLMResponse>;
}

/** The request's messages in full form (string content as one text part, thinking blocks defaulted). */
export function normalizeMessages(messages: readonly LLMMessage[]): Message[] {
  return messages.map((message) =>
    typeof message.content === 'string' || message.thinking_blocks === undefined
      ? {
          ...message,
          content:
            typeof message.content === 'string'
              ? [{ cache_prompt: false, type: 'text' as const, text: message.content }]
              : message.content,
          thinking_blocks: message.thinking_blocks ?? [],
        }
      : (message as Message),
  );
}
