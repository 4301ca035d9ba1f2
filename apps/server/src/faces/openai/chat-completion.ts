import { randomUUID } from 'node:crypto';

/** OpenAI `CompletionUsage`: the conversation's accumulated token counts. */
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

/** What one answer is built from: the agent's final response and the conversation's token counts. */
export interface AgentAnswer {
  id: string;
  created: number;
  model: string;
  content: string;
  usage: CompletionUsage;
}

/** A fresh completion id and creation time (seconds), shared by a response and all chunks of its stream. */
export function completionIdentity(now: () => number = Date.now): { id: string; created: number } {
  return { id: `chatcmpl-${randomUUID().replaceAll('-', '')}`, created: Math.floor(now() / 1000) };
}

/**
 * Token usage summed over the models of a conversation's stats (`usage_to_metrics.*.accumulated_token_usage`, the
 * reference's `get_combined_metrics`); zeros when there is none.
 */
export function usageOfStats(stats: unknown): CompletionUsage {
  let prompt = 0;
  let completion = 0;
  const metrics = (stats as { usage_to_metrics?: unknown } | null | undefined)?.usage_to_metrics;
  if (metrics !== null && typeof metrics === 'object') {
    for (const entry of Object.values(metrics)) {
      const usage = (entry as { accumulated_token_usage?: unknown } | null)?.accumulated_token_usage as
        | { prompt_tokens?: unknown; completion_tokens?: unknown }
        | null
        | undefined;
      if (typeof usage?.prompt_tokens === 'number') prompt += usage.prompt_tokens;
      if (typeof usage?.completion_tokens === 'number') completion += usage.completion_tokens;
    }
  }
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
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
    usage: answer.usage,
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
      usage: answer.usage,
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
