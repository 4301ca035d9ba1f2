import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { LLMDelta } from '../llm.js';
import type { AssistantParts } from './assistant-message.js';

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Non-standard reasoning text some providers (DeepSeek, vLLM, OpenRouter) put beside `content`. */
export function reasoningOf(value: object | null | undefined): string | undefined {
  if (!value) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.reasoning_content === 'string') return record.reasoning_content;
  if (typeof record.reasoning === 'string') return record.reasoning;
  return undefined;
}

/**
 * Folds Chat Completions chunks into one reply. Tool calls arrive as fragments keyed by `index`: the
 * first fragment carries the id and name, later ones append to `arguments`.
 */
export class StreamAssembler {
  id: string | undefined;
  finishReason: string | null = null;
  usage: CompletionUsage | null = null;
  private content = '';
  private sawContent = false;
  private reasoning: string | undefined;
  private readonly toolCalls = new Map<number, PartialToolCall>();

  /** Adds one chunk and returns the text deltas it carried (for `onDelta`), if any. */
  add(chunk: ChatCompletionChunk): LLMDelta | undefined {
    this.id ??= chunk.id;
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return undefined;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const delta: LLMDelta = {};
    if (typeof choice.delta.content === 'string' && choice.delta.content !== '') {
      this.content += choice.delta.content;
      this.sawContent = true;
      delta.content = choice.delta.content;
    }
    const reasoning = reasoningOf(choice.delta);
    if (reasoning !== undefined) {
      this.reasoning = (this.reasoning ?? '') + reasoning;
      if (reasoning !== '') delta.reasoning_content = reasoning;
    }
    for (const fragment of choice.delta.tool_calls ?? []) {
      const call = this.toolCalls.get(fragment.index) ?? { id: '', name: '', arguments: '' };
      if (fragment.id) call.id = fragment.id;
      // Some servers repeat the name in every fragment; the first one is the name.
      if (fragment.function?.name && call.name === '') call.name = fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
      this.toolCalls.set(fragment.index, call);
    }
    return delta.content !== undefined || delta.reasoning_content !== undefined ? delta : undefined;
  }

  parts(): AssistantParts {
    const toolCalls = [...this.toolCalls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    return {
      content: this.sawContent ? this.content : null,
      toolCalls,
      reasoningContent: this.reasoning,
    };
  }
}
