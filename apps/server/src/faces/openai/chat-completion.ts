import { randomUUID } from 'node:crypto';
import type { ResponseUsage } from './response-object.js';

/** OpenAI `CompletionUsage`: the tokens of the model calls one completion's run made. */
export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** OpenAI `ChatCompletion` (non-streaming answer). */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: [
    {
      index: 0;
      finish_reason: 'stop';
      message: { role: 'assistant'; content: string; refusal: null };
      logprobs: null;
    },
  ];
  usage: CompletionUsage;
}

/** OpenAI `ChatCompletionChunk` (one `data:` frame of a stream). */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    delta: { role?: 'assistant'; content?: string };
    finish_reason: 'stop' | null;
    logprobs: null;
  }>;
  usage?: CompletionUsage;
}

/** What one answer is built from: the agent's final response and the tokens its run spent. */
export interface AgentAnswer {
  id: string;
  created: number;
  model: string;
  content: string;
  usage: ResponseUsage;
}

/** A fresh completion id and creation time (seconds), shared by a response and all chunks of its stream. */
export function completionIdentity(now: () => number = Date.now): { id: string; created: number } {
  return { id: `chatcmpl-${randomUUID().replaceAll('-', '')}`, created: Math.floor(now() / 1000) };
}

/** OpenAI's `CompletionUsage` of a run's usage: the tokens this completion's model calls spent. */
export function completionUsageOf(usage: ResponseUsage): CompletionUsage {
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.input_tokens + usage.output_tokens,
  };
}

export function chatCompletionOf(answer: AgentAnswer): ChatCompletion {
  return {
    id: answer.id,
    object: 'chat.completion',
    created: answer.created,
    model: answer.model,
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        message: { role: 'assistant', content: answer.content, refusal: null },
        logprobs: null,
      },
    ],
    usage: completionUsageOf(answer.usage),
  };
}

function chunk(
  identity: Pick<AgentAnswer, 'id' | 'created' | 'model'>,
  delta: ChatCompletionChunk['choices'][number]['delta'],
  finishReason: 'stop' | null,
): ChatCompletionChunk {
  return {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  };
}

/** The first chunk of a stream, sent as soon as the run starts: the assistant role, no content yet. */
export function roleChunk(identity: Pick<AgentAnswer, 'id' | 'created' | 'model'>): ChatCompletionChunk {
  return chunk(identity, { role: 'assistant', content: '' }, null);
}

/**
 * The chunks after the role chunk, as the reference streams an answer: the content, the finish reason, and
 * with `include_usage` a last chunk with no choices and the usage.
 */
export function answerChunks(answer: AgentAnswer, options: { includeUsage: boolean }): ChatCompletionChunk[] {
  const chunks = [chunk(answer, { content: answer.content }, null), chunk(answer, {}, 'stop')];
  if (options.includeUsage) {
    chunks.push({
      id: answer.id,
      object: 'chat.completion.chunk',
      created: answer.created,
      model: answer.model,
      choices: [],
      usage: completionUsageOf(answer.usage),
    });
  }
  return chunks;
}

/** One server-sent event frame carrying `payload` as JSON. */
export function sseData(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

/** The frame that ends every OpenAI stream. */
export const SSE_DONE = 'data: [DONE]\n\n';
