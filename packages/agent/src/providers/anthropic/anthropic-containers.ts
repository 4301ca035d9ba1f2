import type { AnthropicMessageParam } from '@x/events';
import type { AnthropicContainer } from './anthropic-container.js';
import type { AnthropicReply } from './anthropic-response.js';

/** How many tool calls' containers one LLM keeps: far more than a step's calls, few enough to stay small. */
export const REMEMBERED_CALLS = 256;

/**
 * The containers of the replies an Anthropic LLM gave, by the ids of their tool calls. Code execution runs in a
 * container that keeps its files (and, with programmatic tool calling, a Python process waiting on the calls): the
 * request that answers a reply's tool calls has to run in the same one, so it names the container of the
 * conversation's latest assistant turn. Tool call ids are Anthropic's own and unique, so two conversations sharing
 * one LLM never get each other's container.
 */
export class AnthropicContainers {
  readonly #byToolCall = new Map<string, AnthropicContainer>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Keeps the container of `reply` for its tool calls. */
  remember(reply: AnthropicReply): void {
    const container = reply.container;
    if (!container) return;
    for (const block of reply.content) {
      if (block.type !== 'tool_use' || !('id' in block)) continue;
      this.#byToolCall.delete(block.id);
      this.#byToolCall.set(block.id, {
        id: container.id,
        ...(container.expires_at && { expires_at: container.expires_at }),
      });
    }
    for (const oldest of this.#byToolCall.keys()) {
      if (this.#byToolCall.size <= REMEMBERED_CALLS) break;
      this.#byToolCall.delete(oldest);
    }
  }

  /** The id of the container the latest assistant turn of `messages` ran in, unless it has expired. */
  containerOf(messages: readonly AnthropicMessageParam[]): string | undefined {
    const latest = messages.findLast((message) => message.role === 'assistant');
    for (const block of latest?.content ?? []) {
      if (block.type !== 'tool_use') continue;
      const container = this.#byToolCall.get(block.id);
      if (container === undefined) continue;
      const expires = container.expires_at === undefined ? Number.NaN : Date.parse(container.expires_at);
      if (!(expires <= this.#now())) return container.id;
    }
    return undefined;
  }
}
