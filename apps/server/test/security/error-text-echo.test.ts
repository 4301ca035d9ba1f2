// No answer of the server reflects unbounded client input: an error text quoting what the client sent (a Content-Type,
// a path, an id, a method name, a header) quotes at most a short prefix of it. A reflected value of any length lets a
// client make the server write what it likes into answers and logs another tool reads (and, echoed in full, a body as
// large as the request). Enumerated from the router, so a route added later is held to it too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../src/index.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rawRequest } from '../support/raw-http.js';

const KEY = 'echo-test-key';
let server: TestServer;
let port: number;
let conversationId: string;

/** The longest run of a client's value an answer may quote. */
const QUOTED_AT_MOST = 120;
/** A value far longer than any quote: letters no answer contains otherwise. */
function marker(length: number): string {
  return 'Qz'.repeat(length / 2);
}

beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: [KEY] } });
  port = Number(new URL(server.url).port);
  const { json } = await server.call(
    'POST',
    '/api/conversations',
    { agent: { llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'sk-x' } } },
    { 'X-Session-API-Key': KEY },
  );
  conversationId = (json as { id: string }).id;
  expect(conversationId).toMatch(/^[0-9a-f-]{32,36}$/);
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** The longest run of the marker's letters in `text`. */
function longestRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/(?:Qz|zQ)+[Qz]?/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/**
 * The text of an answer that refuses the request: the whole body of a 4xx/5xx, the `error` of a JSON-RPC answer (its
 * `id` is the request's by the protocol), nothing of a success (which may hold what the client stored, such as a
 * command it ran).
 */
function errorText(status: number, body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return status >= 400 ? body : '';
  }
  if (typeof json === 'object' && json !== null && 'jsonrpc' in json) {
    return JSON.stringify((json as { error?: unknown }).error ?? '');
  }
  return status >= 400 ? body : '';
}

function concrete(route: RegisteredRoute, param: string): string {
  return route.url.replace(/:conversation_id/g, conversationId).replace(/:[a-z_]+/g, param);
}

const QUERY_NAMES = [
  'path',
  'kind',
  'source',
  'body',
  'page_id',
  'limit',
  'start',
  'sort_order',
  'title__contains',
  'event_id',
  'ref',
  'sha',
  'model',
];

/** The requests of one route carrying `value` where a client puts text: path parameters, query, headers, body. */
function requests(
  route: RegisteredRoute,
  value: string,
): { method: string; target: string; headers: Record<string, string>; body?: string }[] {
  const key = { 'X-Session-API-Key': KEY };
  const method = route.method;
  const plain = concrete(route, 'no-such-id');
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const query = QUERY_NAMES.map((name) => `${name}=${encodeURIComponent(value)}`).join('&');
  const fields = Object.fromEntries(
    ['id', 'method', 'threadId', 'runId', 'model', 'title', 'path', 'command', 'event_id', 'previous_response_id'].map(
      (name) => [name, value],
    ),
  );
  const out: { method: string; target: string; headers: Record<string, string>; body?: string }[] = [
    { method, target: concrete(route, value), headers: key },
    { method, target: `${plain}?${query}`, headers: key },
    {
      method,
      target: plain,
      headers: {
        ...key,
        'Mcp-Session-Id': value,
        'Last-Event-ID': value,
        Accept: value,
        'Mcp-Protocol-Version': value,
        'Accept-Language': value,
      },
    },
  ];
  if (hasBody) {
    out.push(
      { method, target: plain, headers: { ...key, 'Content-Type': `text/${value}` }, body: '{}' },
      { method, target: plain, headers: { ...key, 'Content-Type': `application/json; charset=${value}` }, body: '{}' },
      { method, target: plain, headers: { ...key, 'Content-Type': `application/json; ${value}=1` }, body: '{}' },
      { method, target: plain, headers: key, body: JSON.stringify(fields) },
      { method, target: plain, headers: key, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: value }) },
      {
        method,
        target: plain,
        headers: key,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: value, ...fields } }),
      },
      {
        method,
        target: plain,
        headers: key,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: value } }),
      },
      { method, target: plain, headers: key, body: `{"${value}": ` },
    );
  }
  return out;
}

describe('error texts quote a bounded prefix of client input', () => {
  it('on every route, for a long value in a path parameter, the query, headers, the media type and the body', async () => {
    const routes = server.built.routes;
    expect(routes.length).toBeGreaterThan(40);
    const echoed: string[] = [];
    for (const route of routes) {
      for (const request of requests(route, marker(3000))) {
        const response = await rawRequest(port, request);
        const text = errorText(response.status, response.body);
        const run = Math.max(longestRun(text), longestRun(JSON.stringify(response.headers)));
        if (run > QUOTED_AT_MOST || response.status >= 500) {
          echoed.push(
            `${request.method} ${route.url} ${request.target.slice(0, 50)} ${JSON.stringify(request.headers).slice(0, 60)} ${request.body?.slice(0, 40) ?? ''} → ${response.status} ${response.body.replace(/(?:Qz)+/g, (m) => `<${m.length}>`).slice(0, 200)}`,
          );
        }
      }
    }
    expect(echoed).toEqual([]);
  }, 120_000);

  it('refuses a path the router cannot take (bad percent-encoding, a parameter too long) without quoting it', async () => {
    const long = `/api/conversations/${conversationId}/events/${marker(3000)}`;
    const bad = `/api/conversations/%E0%A4%A${marker(3000)}`;
    const headers = { 'X-Session-API-Key': KEY };
    expect(JSON.parse((await rawRequest(port, { target: long, headers })).body)).toEqual({
      detail: 'URI Too Long: a path parameter is longer than 100 characters',
    });
    const refused = await rawRequest(port, { target: bad, headers });
    expect([refused.status, longestRun(refused.body)]).toEqual([400, 0]);
  });

  it('runs the Host/Origin check on those paths too (the router refuses them before any hook)', async () => {
    for (const target of [`/api/conversations/${marker(200)}`, '/api/conversations/%E0%A4%A', '/assets/%ff']) {
      for (const headers of [
        { Host: 'evil.example' },
        { Host: `evil.example:${port}` },
        { Origin: 'http://evil.example' },
        { Origin: 'null' },
        { 'Sec-Fetch-Site': 'cross-site' },
      ] as Record<string, string>[]) {
        const response = await rawRequest(port, { target, headers: { 'X-Session-API-Key': KEY, ...headers } });
        expect({ target: target.slice(0, 40), headers, status: response.status }).toEqual({
          target: target.slice(0, 40),
          headers,
          status: 403,
        });
      }
    }
  });

  it('quotes a bounded prefix of a refused Host or Origin', async () => {
    for (const headers of [{ Host: `${marker(3000)}.example` }, { Origin: `http://${marker(3000)}.example` }] as Record<
      string,
      string
    >[]) {
      const response = await rawRequest(port, { target: '/api/conversations/count', headers });
      expect(response.status).toBe(403);
      expect(longestRun(response.body)).toBeGreaterThan(0);
      expect(longestRun(response.body)).toBeLessThanOrEqual(QUOTED_AT_MOST);
    }
  });
});
