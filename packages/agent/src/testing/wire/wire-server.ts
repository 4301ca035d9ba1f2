import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from '../internal/loopback-server.js';
import {
  isFailure,
  roughTokens,
  type WireFailureKind,
  type WireReply,
  type WireReplyFunction,
  type WireRequest,
  type WireServer,
  type WireTurn,
} from './wire-types.js';

/** An HTTP answer: a JSON body, or server-sent events. */
export type WireAnswer =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: 200; events: { event?: string; data: unknown }[] };

/** What a vendor contributes to the shared server: routing, auth, checks and its wire format. */
export interface WireProtocol {
  readonly checks: readonly string[];
  /** Whether the path is a model call, and whether it streams (Gemini streams by path). */
  route(method: string, path: string, query: URLSearchParams): { stream?: boolean } | undefined;
  /** The key the request carries (header name differs per vendor). */
  apiKeyOf(request: IncomingMessage): string | undefined;
  /** Violations of the vendor's rules, including continuity with what this server answered before. */
  validate(body: Record<string, unknown>): string[];
  invalid(violations: string[]): WireAnswer & { status: number };
  failure(kind: WireFailureKind): WireAnswer & { status: number };
  notFound(path: string): WireAnswer & { status: number };
  answer(
    turn: WireTurn,
    context: { body: Record<string, unknown>; requestNumber: number; stream: boolean },
  ): WireAnswer;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function send(response: ServerResponse, answer: WireAnswer): void {
  if ('events' in answer) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const { event, data } of answer.events) {
      response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
    }
    response.end();
    return;
  }
  response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  response.end(JSON.stringify(answer.json));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a server on 127.0.0.1 (a free port) speaking `protocol`, answering from `script`. */
export async function startWireServer(
  protocol: WireProtocol,
  script: WireReply[] | WireReplyFunction,
  options: { apiKey?: string; basePath?: string } = {},
): Promise<WireServer> {
  const queue: WireReply[] = Array.isArray(script) ? [...script] : [];
  const fallback = typeof script === 'function' ? script : undefined;
  const requests: WireRequest[] = [];

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const text = await readBody(request);
    const route = protocol.route(request.method ?? 'GET', url.pathname, url.searchParams);
    if (!route) return send(response, protocol.notFound(url.pathname));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return send(response, protocol.invalid(['the request body is not JSON']));
    }
    const stream = route.stream ?? body.stream === true;
    const record: WireRequest = {
      path: url.pathname,
      query: url.search,
      headers: request.headers,
      body,
      stream,
      violations: [],
    };
    requests.push(record);
    if (options.apiKey !== undefined && protocol.apiKeyOf(request) !== options.apiKey) {
      return send(response, protocol.failure('authentication'));
    }
    record.violations.push(...protocol.validate(body));
    if (record.violations.length > 0) return send(response, protocol.invalid(record.violations));
    const reply = queue.shift() ?? fallback?.(body, requests.length - 1);
    if (!reply) {
      return send(response, { ...protocol.failure('server_error'), headers: { 'x-should-retry': 'false' } });
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    if (response.destroyed || request.socket.destroyed) return;
    if (isFailure(reply)) return send(response, protocol.failure(reply.error));
    send(response, protocol.answer(reply, { body, requestNumber: requests.length, stream }));
  }

  const server = await listenOnLoopback(handle, (response, error) =>
    send(response, { status: 500, json: { error: { message: String(error) } } }),
  );
  return {
    baseURL: `http://127.0.0.1:${server.port}${options.basePath ?? ''}`,
    requests,
    checks: protocol.checks,
    push(...replies) {
      queue.push(...replies);
    },
    close: () => server.close(),
  };
}

/** A cacheable prompt prefix (its serialized text) as `PrefixCache` keys it. */
export function cachePrefix(text: string): { key: string; tokens: number } {
  return { key: createHash('sha256').update(text).digest('hex'), tokens: roughTokens(text) };
}

/** Every prefix of `items` (the first item, the first two, ...) for implicit caching of repeated prefixes. */
export function cachePrefixes(items: readonly unknown[]): { key: string; tokens: number }[] {
  return items.map((_, index) => cachePrefix(JSON.stringify(items.slice(0, index + 1))));
}

/**
 * Prompt-cache simulation shared by the servers: a request's cacheable prefixes (ending at each
 * breakpoint) are remembered; the longest one seen before is a cache read, a longer new one a write.
 */
export class PrefixCache {
  readonly #seen = new Set<string>();

  /** Given the prefixes' keys and token counts (shortest first), returns read and written tokens. */
  use(prefixes: { key: string; tokens: number }[]): { read: number; written: number } {
    let read = 0;
    for (const prefix of prefixes) if (this.#seen.has(prefix.key)) read = Math.max(read, prefix.tokens);
    const longest = prefixes[prefixes.length - 1];
    const written = longest && !this.#seen.has(longest.key) ? Math.max(0, longest.tokens - read) : 0;
    for (const prefix of prefixes) this.#seen.add(prefix.key);
    return { read, written };
  }
}
