import type { Message, MessageToolCall, ReasoningItem, TextContent } from '@x/events';
import { numberAt, tokenUsage } from '../../llm/internal/usage.js';
import type { LLMFinishReason } from '../../llm/llm.js';
import type { TokenUsage } from '../../llm/metrics.js';

/** The parts of a Responses API `Response` we read (the SDK's type, structurally). */
export interface ResponsesReply {
  id: string;
  status?: string | null;
  incomplete_details?: { reason?: string | null } | null;
  output: readonly Record<string, unknown>[];
  usage?: object | null;
}

function texts(value: unknown, key: string): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((part: Record<string, unknown>) =>
    typeof part?.[key] === 'string' ? [part[key] as string] : [],
  );
}

function reasoningItem(item: Record<string, unknown>): ReasoningItem {
  const out: ReasoningItem = { summary: texts(item.summary, 'text') };
  if (typeof item.id === 'string') out.id = item.id;
  const content = texts(item.content, 'text');
  if (Array.isArray(item.content)) out.content = content;
  if (typeof item.encrypted_content === 'string') out.encrypted_content = item.encrypted_content;
  if (typeof item.status === 'string') out.status = item.status;
  return out;
}

/**
 * The assistant Message of a Responses reply: output_text parts as text, refusals as text, function
 * calls as tool calls (`call_id` as the id, the item id kept in `responses_item_id`), and the reasoning
 * item (id, summaries, content, encrypted content, status) as `responses_reasoning_item` with its
 * summaries joined into `reasoning_content`.
 */
export function responsesMessage(reply: ResponsesReply): Message {
  const content: TextContent[] = [];
  const calls: MessageToolCall[] = [];
  let reasoning: ReasoningItem | undefined;
  for (const item of reply.output) {
    if (item.type === 'message') {
      for (const part of (item.content as Record<string, unknown>[] | undefined) ?? []) {
        const text = part.type === 'output_text' ? part.text : part.type === 'refusal' ? part.refusal : undefined;
        if (typeof text === 'string' && text !== '') content.push({ cache_prompt: false, type: 'text', text });
      }
    } else if (item.type === 'function_call') {
      calls.push({
        id: String(item.call_id),
        ...(typeof item.id === 'string' && { responses_item_id: item.id }),
        name: String(item.name),
        arguments: typeof item.arguments === 'string' ? item.arguments : '{}',
        origin: 'responses',
      });
    } else if (item.type === 'reasoning' && reasoning === undefined) {
      // One reasoning item per turn is what the event model holds (and what the API returns before calls).
      reasoning = reasoningItem(item);
    }
  }
  const message: Message = { role: 'assistant', content, thinking_blocks: [] };
  if (calls.length > 0) message.tool_calls = calls;
  if (reasoning !== undefined) {
    message.responses_reasoning_item = reasoning;
    const summary = [...reasoning.summary, ...(reasoning.content ?? [])].join('\n');
    if (summary !== '') message.reasoning_content = summary;
  }
  return message;
}

export function responsesFinishReason(reply: ResponsesReply): { mapped: LLMFinishReason; raw: string } {
  if (reply.output.some((item) => item.type === 'function_call')) return { mapped: 'tool_calls', raw: 'tool_calls' };
  if (reply.status === 'incomplete') {
    const reason = reply.incomplete_details?.reason ?? 'incomplete';
    return { mapped: reason === 'content_filter' ? 'content_filter' : 'length', raw: reason };
  }
  return { mapped: 'stop', raw: reply.status ?? 'completed' };
}

export function responsesUsage(
  usage: object | null | undefined,
  options: { model: string; responseId: string; contextWindow: number },
): TokenUsage | null {
  if (!usage) return null;
  const record = usage as Record<string, unknown>;
  return tokenUsage({
    ...options,
    prompt: numberAt(usage, 'input_tokens'),
    completion: numberAt(usage, 'output_tokens'),
    cacheRead: numberAt(record.input_tokens_details, 'cached_tokens'),
    cacheWrite: numberAt(record.input_tokens_details, 'cache_write_tokens'),
    reasoning: numberAt(record.output_tokens_details, 'reasoning_tokens'),
  });
}
