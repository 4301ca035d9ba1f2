import type { EvalRun, LLM, LLMRequest, LLMResponse } from '../../src/index.js';
import { emptyTokenUsage } from '../../src/llm/metrics.js';

/** A run as scorers see it, with every field at its neutral value unless given. */
export function runWith(fields: Partial<EvalRun> = {}): EvalRun {
  return {
    task: 'Do the thing',
    events: [],
    status: 'finished',
    finalAnswer: '',
    toolCalls: [],
    errors: [],
    costUsd: 0,
    durationSeconds: 0,
    filesWritten: [],
    workspace: undefined,
    ...fields,
  };
}

/** A judge model answering each request with the next reply, at 10 prompt and 5 completion tokens and `cost` dollars. */
export function scriptedJudge(replies: string[], cost = 0.002): LLM & { requests: LLMRequest[] } {
  const requests: LLMRequest[] = [];
  return {
    model: 'judge-model',
    usageId: 'judge',
    offline: true,
    requests,
    async complete(request: LLMRequest): Promise<LLMResponse> {
      requests.push(request);
      const text = replies[requests.length - 1] ?? '';
      return {
        id: `judge-${requests.length}`,
        message: { role: 'assistant', content: [{ type: 'text', text, cache_prompt: false }], thinking_blocks: [] },
        finishReason: 'stop',
        usage: { ...emptyTokenUsage('judge-model'), prompt_tokens: 10, completion_tokens: 5 },
        cost,
        latencySeconds: 0,
      } as LLMResponse;
    },
  };
}

/** The text of every message of a request, joined: what the judge was shown. */
export function requestText(request: LLMRequest | undefined): string {
  return (request?.messages ?? [])
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    )
    .join('\n');
}
