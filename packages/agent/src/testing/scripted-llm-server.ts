import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import {
  completionBody,
  completionChunks,
  contextOverflowError,
  type ScriptedCompletion,
} from './internal/completion-payloads.js';
import { listenOnLoopback } from './internal/loopback-server.js';

export type { ScriptedCompletion, ScriptedToolCall, ScriptedUsage } from './internal/completion-payloads.js';

/** An HTTP error answer, e.g. `{ error: { status: 429, message: 'slow down' }, headers: { 'retry-after-ms': '5' } }`. */
export interface ScriptedError {
  error: { status: number; code?: string; message: string; type?: string };
  headers?: Record<string, string>;
  delayMs?: number;
}

/** OpenAI's 400 `context_length_exceeded` answer. */
export interface ScriptedContextOverflow {
  contextOverflow: true;
  delayMs?: number;
}

/** No answer: the request is held open until the client closes it (cancellation tests). */
export interface ScriptedHang {
  hang: true;
}

/**
 * A reply, optionally held back until `gate` resolves: a test that must act while the model "thinks" opens the
 * gate when it is ready, instead of guessing a delay.
 */
export type ScriptedReply =
  | ((ScriptedCompletion | ScriptedError | ScriptedContextOverflow) & { gate?: Promise<void> })
  | ScriptedHang;

/** A request body as received (parsed JSON object; not validated further). */
export type ScriptedRequestBody = Record<string, unknown>;

export type ScriptedReplyFunction = (body: ScriptedRequestBody, index: number) => ScriptedReply;

export interface ScriptedLLMServer {
  /** Base URL including `/v1`, ready for `createOpenAILLM({ baseURL })` or `new OpenAI({ baseURL })`. */
  readonly baseURL: string;
  /** Bodies of every `POST /v1/chat/completions`, in arrival order (retries included). */
  readonly requests: ScriptedRequestBody[];
  /** Headers of the same requests, in the same order. */
  readonly requestHeaders: IncomingHttpHeaders[];
  /** Query strings of the same requests (`?key=abc`, or `''`), in the same order. */
  readonly requestQueries: string[];
  /** Indices (into `requests`) of the requests the client closed before they were answered. */
  readonly closedByClient: readonly number[];
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves once the client has closed request `index` before its answer (e.g. on abort). */
  waitForClientClose(index: number): Promise<void>;
  /** Queues more replies; they are served before a function script is consulted. */
  push(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parseObject(text: string): ScriptedRequestBody | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as ScriptedRequestBody)
      : undefined;
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts an OpenAI-compatible server on 127.0.0.1 (a free port) that answers `POST /v1/chat/completions`
 * from a script: a list of replies (consumed one per request, retries included) or a function of the
 * request. Streams SSE chunks when the request asks for `stream: true`. A request beyond the script gets
 * a 500 saying so, with `x-should-retry: false` so clients fail at once.
 */
export async function startScriptedLLMServer(
  script: ScriptedReply[] | ScriptedReplyFunction = [],
): Promise<ScriptedLLMServer> {
  const queue: ScriptedReply[] = Array.isArray(script) ? [...script] : [];
  const fallback = typeof script === 'function' ? script : undefined;
  const requests: ScriptedRequestBody[] = [];
  const requestHeaders: IncomingHttpHeaders[] = [];
  const requestQueries: string[] = [];
  const closedByClient: number[] = [];
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of waiters) waiter();
  };
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve) => {
      if (condition()) return resolve();
      const waiter = () => {
        if (!condition()) return;
        waiters.delete(waiter);
        resolve();
      };
      waiters.add(waiter);
    });
  let served = 0;

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      await readBody(request);
      sendJson(response, 404, {
        error: { message: `No route for ${request.method} ${path}`, type: 'invalid_request_error', code: 'not_found' },
      });
      return;
    }
    const body = parseObject(await readBody(request));
    if (!body) {
      sendJson(response, 400, {
        error: { message: 'The request body must be a JSON object', type: 'invalid_request_error', code: null },
      });
      return;
    }
    const index = served;
    served += 1;
    requests.push(body);
    requestHeaders.push(request.headers);
    requestQueries.push(new URL(request.url ?? '/', 'http://127.0.0.1').search);
    // 'close' on the response before it ended: the client went away (abort, timeout) without an answer.
    response.once('close', () => {
      if (response.writableEnded) return;
      closedByClient.push(index);
      changed();
    });
    changed();
    const reply = queue.shift() ?? fallback?.(body, index);
    if (!reply) {
      const message = `Scripted LLM server: the script is exhausted; request ${index + 1} has no scripted reply`;
      sendJson(
        response,
        500,
        { error: { message, type: 'server_error', code: 'script_exhausted' } },
        {
          'x-should-retry': 'false',
        },
      );
      return;
    }
    if ('hang' in reply) return;
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.gate !== undefined) await reply.gate;
    // The client may have given up (timeout, abort) while we waited.
    if (response.destroyed || !response.socket || response.socket.destroyed) return;
    if ('error' in reply) {
      const { status, message, code, type } = reply.error;
      sendJson(
        response,
        status,
        {
          error: {
            message,
            type: type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
            param: null,
            code: code ?? null,
          },
        },
        reply.headers,
      );
      return;
    }
    if ('contextOverflow' in reply) {
      sendJson(response, 400, { error: contextOverflowError });
      return;
    }
    const options = { requestNumber: index + 1, model: typeof body.model === 'string' ? body.model : 'scripted' };
    if (body.stream === true) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const chunk of completionChunks(reply, options)) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      response.end('data: [DONE]\n\n');
      return;
    }
    sendJson(response, 200, completionBody(reply, options));
  }

  const server = await listenOnLoopback(answer, (response, error) =>
    sendJson(response, 500, { error: { message: String(error), type: 'server_error' } }),
  );

  return {
    baseURL: `http://127.0.0.1:${server.port}/v1`,
    requests,
    requestHeaders,
    requestQueries,
    closedByClient,
    waitForRequests: (count) => until(() => requests.length >= count),
    waitForClientClose: (index) => until(() => closedByClient.includes(index)),
    push(...replies) {
      queue.push(...replies);
    },
    close: () => server.close(),
  };
}
