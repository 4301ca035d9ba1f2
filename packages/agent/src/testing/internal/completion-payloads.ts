// Chat Completions payloads in OpenAI's wire shape, built from scripted replies.
import { splitText } from './split-text.js';

/** Token counts a scripted reply reports; the other usage fields are derived. */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

export interface ScriptedToolCall {
  /** Default `call_<n>_<i>` (n = request number, i = position). */
  id?: string;
  name: string;
  /** An object is sent as its JSON text; a string is sent as is, so malformed JSON can be scripted. */
  arguments: Record<string, unknown> | string;
}

export interface ScriptedCompletion {
  content?: string;
  toolCalls?: ScriptedToolCall[];
  /** Sent as the non-standard `reasoning_content` field, as DeepSeek and vLLM do. */
  reasoning?: string;
  usage?: ScriptedUsage;
  delayMs?: number;
}

const defaultUsage: ScriptedUsage = { prompt_tokens: 10, completion_tokens: 5 };

interface ResolvedCall {
  id: string;
  name: string;
  arguments: string;
}

function resolveCalls(reply: ScriptedCompletion, requestNumber: number): ResolvedCall[] {
  return (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${requestNumber}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function usageOf(reply: ScriptedCompletion) {
  const usage = reply.usage ?? defaultUsage;
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

function finishReasonOf(calls: ResolvedCall[]): string {
  return calls.length > 0 ? 'tool_calls' : 'stop';
}

export function completionBody(reply: ScriptedCompletion, options: { requestNumber: number; model: string }) {
  const calls = resolveCalls(reply, options.requestNumber);
  return {
    id: `chatcmpl-${options.requestNumber}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: options.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.content ?? null,
          ...(reply.reasoning !== undefined && { reasoning_content: reply.reasoning }),
          ...(calls.length > 0 && {
            tool_calls: calls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          }),
        },
        finish_reason: finishReasonOf(calls),
      },
    ],
    usage: usageOf(reply),
  };
}

/**
 * The reply as streamed chunks: role, reasoning and content deltas, each tool call as a head fragment
 * (id + name) followed by its arguments in pieces, a finish chunk, then a usage chunk with no choices.
 */
export function completionChunks(reply: ScriptedCompletion, options: { requestNumber: number; model: string }) {
  const calls = resolveCalls(reply, options.requestNumber);
  const base = {
    id: `chatcmpl-${options.requestNumber}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: options.model,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const chunks: object[] = [chunk({ role: 'assistant', content: '' })];
  if (reply.reasoning !== undefined) {
    for (const piece of splitText(reply.reasoning, 2)) chunks.push(chunk({ reasoning_content: piece }));
  }
  if (reply.content !== undefined) {
    for (const piece of splitText(reply.content, 3)) chunks.push(chunk({ content: piece }));
  }
  calls.forEach((call, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of splitText(call.arguments, 3)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, finishReasonOf(calls)));
  chunks.push({ ...base, choices: [], usage: usageOf(reply) });
  return chunks;
}

export const contextOverflowError = {
  message:
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
  type: 'invalid_request_error',
  param: 'messages',
  code: 'context_length_exceeded',
};
