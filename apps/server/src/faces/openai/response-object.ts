import { randomUUID } from 'node:crypto';

/** OpenAI `ResponseUsage`: the tokens one response's run spent. */
export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** OpenAI `ResponseOutputText`. */
export interface OutputText {
  type: 'output_text';
  text: string;
  annotations: [];
  logprobs: [];
}

/** OpenAI `ResponseOutputMessage`: the one output item of a response, the agent's final answer. */
export interface OutputMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  status: 'in_progress' | 'completed';
  content: OutputText[];
}

/** The statuses a response of the gateway takes (OpenAI's `ResponseStatus` but `queued` and `incomplete`). */
export type ResponseStatus = 'in_progress' | 'completed' | 'failed' | 'cancelled';

/** OpenAI `Response`, as the gateway answers `POST /v1/responses` and `GET /v1/responses/{id}`. */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  completed_at: number | null;
  status: ResponseStatus;
  error: { code: string; message: string } | null;
  incomplete_details: null;
  instructions: string | null;
  metadata: Record<string, string>;
  model: string;
  output: OutputMessage[];
  /** The SDK computes it on `create` and `retrieve`; sent for clients that read the JSON themselves. */
  output_text: string;
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  temperature: null;
  top_p: null;
  tool_choice: 'auto';
  tools: [];
  text: { format: { type: 'text' } };
  background: false;
  store: boolean;
  usage: ResponseUsage | null;
}

/** What a response echoes of its request. */
export interface ResponseRequestEcho {
  model: string;
  instructions: string | null;
  metadata: Record<string, string>;
  previous_response_id: string | null;
  store: boolean;
  /** As the request asked (OpenAI's default true): the gateway refuses what it cannot honour. */
  parallel_tool_calls: boolean;
}

const hex = (): string => randomUUID().replaceAll('-', '');

/** A new response, `in_progress`, with a fresh id: what `response.created` carries while the agent works. */
export function startedResponse(echo: ResponseRequestEcho, now: () => number = Date.now): ResponseObject {
  return {
    id: `resp_${hex()}`,
    object: 'response',
    created_at: Math.floor(now() / 1000),
    completed_at: null,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: echo.instructions,
    metadata: echo.metadata,
    model: echo.model,
    output: [],
    output_text: '',
    parallel_tool_calls: echo.parallel_tool_calls,
    previous_response_id: echo.previous_response_id,
    temperature: null,
    top_p: null,
    tool_choice: 'auto',
    tools: [],
    text: { format: { type: 'text' } },
    background: false,
    store: echo.store,
    usage: null,
  };
}

/** The assistant message holding `text`, with a fresh item id. */
export function outputMessageOf(text: string, status: OutputMessage['status'] = 'completed'): OutputMessage {
  return {
    id: `msg_${hex()}`,
    type: 'message',
    role: 'assistant',
    status,
    content: status === 'completed' ? [outputTextOf(text)] : [],
  };
}

export const outputTextOf = (text: string): OutputText => ({
  type: 'output_text',
  text,
  annotations: [],
  logprobs: [],
});

/** The response answered: the agent's final answer as its one message, the run's usage, `completed`. */
export function completedResponse(
  started: ResponseObject,
  answer: { message: OutputMessage; usage: ResponseUsage },
  now: () => number = Date.now,
): ResponseObject {
  const text = answer.message.content.map((part) => part.text).join('');
  return {
    ...started,
    status: 'completed',
    completed_at: Math.floor(now() / 1000),
    output: [answer.message],
    output_text: text,
    usage: answer.usage,
  };
}

/**
 * The response ended without an answer: `failed` with the gateway's error code, or `cancelled` because its client
 * left (no error, as OpenAI's cancelled responses).
 */
export function endedResponse(
  started: ResponseObject,
  outcome: { status: 'cancelled' } | { status: 'failed'; code: string; message: string },
): ResponseObject {
  if (outcome.status === 'cancelled') return { ...started, status: 'cancelled' };
  return { ...started, status: 'failed', error: { code: outcome.code, message: outcome.message } };
}

/** Token counts of a conversation's stats, summed over its models; zeros when it has none. */
export function usageTotalsOf(stats: unknown): ResponseUsage {
  const totals = { input: 0, output: 0, cached: 0, reasoning: 0 };
  const metrics = (stats as { usage_to_metrics?: unknown } | null | undefined)?.usage_to_metrics;
  const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  if (metrics !== null && typeof metrics === 'object') {
    for (const entry of Object.values(metrics)) {
      const usage = (entry as { accumulated_token_usage?: unknown } | null)?.accumulated_token_usage as
        | Record<string, unknown>
        | null
        | undefined;
      totals.input += count(usage?.prompt_tokens);
      totals.output += count(usage?.completion_tokens);
      totals.cached += count(usage?.cache_read_tokens);
      totals.reasoning += count(usage?.reasoning_tokens);
    }
  }
  return usageOf(totals);
}

function usageOf(totals: { input: number; output: number; cached: number; reasoning: number }): ResponseUsage {
  return {
    input_tokens: totals.input,
    input_tokens_details: { cached_tokens: totals.cached },
    output_tokens: totals.output,
    output_tokens_details: { reasoning_tokens: totals.reasoning },
    total_tokens: totals.input + totals.output,
  };
}

/**
 * What one run spent: the conversation's totals after it less those before it (stats accumulate over the whole
 * conversation, and a response reports its own run, as OpenAI's does).
 */
export function usageBetween(before: ResponseUsage, after: ResponseUsage): ResponseUsage {
  const spent = (a: number, b: number): number => Math.max(0, a - b);
  return usageOf({
    input: spent(after.input_tokens, before.input_tokens),
    output: spent(after.output_tokens, before.output_tokens),
    cached: spent(after.input_tokens_details.cached_tokens, before.input_tokens_details.cached_tokens),
    reasoning: spent(after.output_tokens_details.reasoning_tokens, before.output_tokens_details.reasoning_tokens),
  });
}
