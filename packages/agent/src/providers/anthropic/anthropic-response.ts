import type { AnyThinkingBlock, Message, MessageToolCall, TextContent } from '@x/events';
import { ownEntry } from '../../internal/own-entries.js';
import { numberAt, tokenUsage } from '../../llm/internal/usage.js';
import type { LLMFinishReason } from '../../llm/llm.js';
import type { TokenUsage } from '../../llm/metrics.js';
import type { AnthropicContainer } from './anthropic-container.js';

/** The parts of an Anthropic `Message` we read (the SDK's type, structurally). */
export interface AnthropicReply {
  id: string;
  content: readonly (
    | { type: 'text'; text: string }
    | { type: 'thinking'; thinking: string; signature: string }
    | { type: 'redacted_thinking'; data: string }
    | { type: 'tool_use'; id: string; name: string; input: unknown }
    | { type: string }
  )[];
  stop_reason: string | null;
  usage: object | null;
  /** The code-execution container the reply ran in (null or absent when it ran in none). */
  container?: AnthropicContainer | null;
}

const finishReasons: Record<string, LLMFinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  refusal: 'content_filter',
};

export function anthropicFinishReason(reason: string | null): LLMFinishReason | null {
  // Own entries only: a stop reason `constructor` (a proxy's, a newer API's) is an unknown one, not Object.
  return reason === null ? null : (ownEntry(finishReasons, reason) ?? 'stop');
}

/**
 * The assistant Message of a reply: its text blocks as one text part, thinking and redacted-thinking blocks
 * (signatures and data kept byte for byte) as `thinking_blocks` with their text joined into
 * `reasoning_content`, tool_use blocks as tool calls (input as JSON text).
 */
export function anthropicMessage(reply: AnthropicReply): Message {
  // Several text blocks (around tool calls, with citations) are one answer: joined into the one text part an
  // LLMResponse holds, as the reference's LiteLLM joins them.
  let text = '';
  const thinking: AnyThinkingBlock[] = [];
  const calls: MessageToolCall[] = [];
  for (const block of reply.content) {
    if (block.type === 'text' && 'text' in block) {
      text += block.text;
    } else if (block.type === 'thinking' && 'thinking' in block) {
      thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block.type === 'redacted_thinking' && 'data' in block) {
      thinking.push({ type: 'redacted_thinking', data: block.data });
    } else if (block.type === 'tool_use' && 'input' in block) {
      calls.push({
        id: block.id,
        name: block.name,
        arguments: JSON.stringify(block.input ?? {}),
        origin: 'completion',
      });
    }
  }
  const content: TextContent[] = text === '' ? [] : [{ cache_prompt: false, type: 'text', text }];
  const message: Message = { role: 'assistant', content, thinking_blocks: thinking };
  if (calls.length > 0) message.tool_calls = calls;
  const texts = thinking.flatMap((block) => (block.type === 'thinking' ? [block.thinking] : []));
  if (texts.length > 0) message.reasoning_content = texts.join('\n');
  return message;
}

/** Anthropic's `input_tokens` leaves out the cached part; the prompt count here includes it. */
export function anthropicUsage(
  usage: object | null,
  options: { model: string; responseId: string; contextWindow: number },
): TokenUsage | null {
  if (!usage) return null;
  const cacheRead = numberAt(usage, 'cache_read_input_tokens');
  const cacheWrite = numberAt(usage, 'cache_creation_input_tokens');
  return tokenUsage({
    ...options,
    prompt: numberAt(usage, 'input_tokens') + cacheRead + cacheWrite,
    completion: numberAt(usage, 'output_tokens'),
    cacheRead,
    cacheWrite,
  });
}
