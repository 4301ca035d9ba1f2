import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  isFailure,
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
    const record: WireRequest = { path: url.pathname, headers: request.headers, body, stream, violations: [] };
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

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, { status: 500, json: { error: { message: String(error) } } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${options.basePath ?? ''}`,
    requests,
    checks: protocol.checks,
    push(...replies) {
      queue.push(...replies);
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
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
