import type { Message, MessageToolCall, TextContent } from '@x/events';
import { numberAt, tokenUsage } from '../../llm/internal/usage.js';
import type { LLMFinishReason } from '../../llm/llm.js';
import type { TokenUsage } from '../../llm/metrics.js';
import { encodeCallId, type GeminiPart, generatedIdPrefix } from './gemini-render.js';

/** A Gemini `GenerateContentResponse` (or the sum of a stream's chunks), structurally. */
export interface GeminiReply {
  responseId?: string;
  candidates?: { content?: { parts?: GeminiPart[] }; finishReason?: string }[];
  usageMetadata?: object;
}

/** Gemini's reasons for output that was blocked or withheld (the `FinishReason` enum of `@google/genai` 3.x). */
const filtered = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
  'ESCALATION',
  'PUP_LIMITED_DISABLED',
  'MODEL_ARMOR',
]);

/** Stops at an output limit: `CONTINUATION` is the per-request token limit with the answer not yet complete. */
const truncated = new Set(['MAX_TOKENS', 'CONTINUATION']);

export function geminiFinishReason(raw: string | undefined, hasCalls: boolean): LLMFinishReason | null {
  if (hasCalls) return 'tool_calls';
  if (raw === undefined) return null;
  if (truncated.has(raw)) return 'length';
  if (filtered.has(raw)) return 'content_filter';
  return 'stop';
}

/**
 * The assistant Message of a reply: its text parts as one text part, thought parts as `reasoning_content`, function
 * calls as tool calls whose ids carry their thought signatures.
 */
export function geminiMessage(parts: readonly GeminiPart[], responseId: string): Message {
  // Several text parts are one answer, joined into the one text part an LLMResponse holds (streamed or not).
  let text = '';
  const thoughts: string[] = [];
  const calls: MessageToolCall[] = [];
  for (const part of parts) {
    if (part.functionCall) {
      const id = part.functionCall.id || `${generatedIdPrefix}${responseId}_${calls.length}`;
      calls.push({
        id: encodeCallId(id, part.thoughtSignature),
        name: part.functionCall.name ?? '',
        arguments: JSON.stringify(part.functionCall.args ?? {}),
        origin: 'completion',
      });
    } else if (typeof part.text === 'string' && part.text !== '') {
      if (part.thought) thoughts.push(part.text);
      else text += part.text;
    }
  }
  const content: TextContent[] = text === '' ? [] : [{ cache_prompt: false, type: 'text', text }];
  const message: Message = { role: 'assistant', content, thinking_blocks: [] };
  if (calls.length > 0) message.tool_calls = calls;
  if (thoughts.length > 0) message.reasoning_content = thoughts.join('');
  return message;
}

/** Gemini's `candidatesTokenCount` leaves out the thoughts; the completion count here includes them. */
export function geminiUsage(
  usage: object | undefined,
  options: { model: string; responseId: string; contextWindow: number },
): TokenUsage | null {
  if (!usage) return null;
  const thoughts = numberAt(usage, 'thoughtsTokenCount');
  return tokenUsage({
    ...options,
    prompt: numberAt(usage, 'promptTokenCount'),
    completion: numberAt(usage, 'candidatesTokenCount') + thoughts,
    cacheRead: numberAt(usage, 'cachedContentTokenCount'),
    reasoning: thoughts,
  });
}

/** Folds streamed chunks into one reply: consecutive text of one kind joins, other parts are kept whole. */
export class GeminiStreamAssembler {
  responseId: string | undefined;
  finishReason: string | undefined;
  usage: object | undefined;
  readonly parts: GeminiPart[] = [];

  /** Adds a chunk and returns its text and thought deltas. */
  add(chunk: GeminiReply): { content?: string; reasoning_content?: string } | undefined {
    this.responseId ??= chunk.responseId;
    if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
    const candidate = chunk.candidates?.[0];
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
    const delta: { content?: string; reasoning_content?: string } = {};
    for (const part of candidate?.content?.parts ?? []) {
      const last = this.parts[this.parts.length - 1];
      if (typeof part.text === 'string' && !part.functionCall) {
        const key = part.thought ? 'reasoning_content' : 'content';
        delta[key] = (delta[key] ?? '') + part.text;
        if (last && typeof last.text === 'string' && Boolean(last.thought) === Boolean(part.thought)) {
          last.text += part.text;
          if (part.thoughtSignature) last.thoughtSignature = part.thoughtSignature;
          continue;
        }
      }
      this.parts.push({ ...part });
    }
    return delta.content || delta.reasoning_content ? delta : undefined;
  }
}
