import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationManager, RegisteredRoute } from '../../src/index.js';
import { createConversation, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { rawRequest } from '../support/raw-http.js';
import { rawUpgrade } from '../support/raw-websocket.js';
import { connectRecording } from '../support/socket-client.js';
import { spellings } from './spellings.js';

const KEY = 'route-auth-key';
let server: TestServer;
let port: number;
let conversationId: string;
/** Every call the handlers make into the conversation manager: each /api handler makes at least one. */
const reached: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: [KEY] } });
  port = Number(new URL(server.url).port);
  conversationId = await createConversation(server, {}).catch(async () => {
    const { json } = await server.call(
      'POST',
      '/api/conversations',
      { agent: { llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'sk-test' } } },
      { 'X-Session-API-Key': KEY },
    );
    return (json as { id: string }).id;
  });
  const manager = server.built.manager as unknown as Record<string, unknown>;
  for (const method of ['get', 'require', 'list', 'create', 'delete', 'open'] as const) {
    const original = (manager[method] as (...args: unknown[]) => unknown).bind(server.built.manager);
    manager[method] = (...args: unknown[]) => {
      reached.push(method);
      return original(...args);
    };
  }
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

function concrete(route: RegisteredRoute): string {
  const path = route.url
    .replace(':conversation_id', conversationId)
    .replace(':event_id', 'no-such-event')
    .replace(':other_id', conversationId)
    .replace(':sha', 'abcd');
  // The workspace file and git routes need a path (one outside the workspaces: refused by the handler).
  return path.startsWith('/api/file/') || path.startsWith('/api/git/') ? `${path}?path=/nonexistent/x` : path;
}

/**
 * Handlers that never need a conversation: the shell, file and git routes work in the server's workspace root, and
 * `count` reads the listing index only. They are reached when they answer with their own verdict (a success,
 * or the file routes' refusal of the path or body).
 */
const handlersWithoutManager = {
  has: (url: string) =>
    url.startsWith('/api/bash/') ||
    url.startsWith('/api/file/') ||
    url.startsWith('/api/git/') ||
    url === '/api/conversations/count',
};

/** A body each route accepts, so that with the key the request reaches its handler. */
function bodyFor(route: RegisteredRoute): string | undefined {
  if (route.method !== 'POST' && route.method !== 'PATCH') return undefined;
  const url = route.url;
  if (url === '/api/conversations') {
    return JSON.stringify({ agent: { llm: { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'sk-x' } } });
  }
  if (url.endsWith('/events')) return JSON.stringify({ content: [{ type: 'text', text: 'hi' }], run: false });
  if (url.endsWith('/confirmation_policy')) return JSON.stringify({ policy: { kind: 'NeverConfirm' } });
  if (url.endsWith('/respond_to_confirmation')) return JSON.stringify({ accept: false, reason: 'no' });
  if (url.endsWith('/ask_agent')) return JSON.stringify({ question: 'why?' });
  if (url.startsWith('/api/bash/')) return JSON.stringify({ command: 'true' });
  if (url.endsWith('/secrets')) return JSON.stringify({ secrets: { NAME: 'value' } });
  if (url.endsWith('/security_analyzer')) return JSON.stringify({ security_analyzer: null });
  if (url.endsWith('/navigate')) return JSON.stringify({ event_id: null });
  if (url === '/api/ag-ui') return JSON.stringify({ threadId: conversationId, runId: 'r', messages: [] });
  if (url === '/api/a2a') {
    return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: conversationId } });
  }
  if (url.endsWith('/budget')) return JSON.stringify({ max_usd: 1 });
  if (url.endsWith('/decisions')) {
    return JSON.stringify({ decisions: [{ action_id: 'no-such-action', decision: { kind: 'approve' } }], run: false });
  }
  // Any JSON-RPC message reaches the MCP face, which answers it itself (here: no session yet).
  if (url === '/api/mcp') return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  if (url.endsWith('/session')) return JSON.stringify({ state_delta: { key: 'value' } });
  if (url.includes('/artifacts/')) return JSON.stringify({ text: 'saved' });
  if (route.method === 'PATCH') return JSON.stringify({ title: 'renamed' });
  return '{}';
}

const publicUrls = new Set([
  '/',
  '/alive',
  '/health',
  '/ready',
  '/server_info',
  '/openapi.json',
  // The A2A agent card: public by the protocol (it tells a client how to authenticate).
  '/.well-known/agent-card.json',
]);
/** The public routes: health and info, the document, the viewer's assets and the docs page (its own scope). */
const publicPaths = {
  has: (url: string) => publicUrls.has(url) || url === '/assets/:file' || url === '/docs' || url.startsWith('/docs/'),
};

describe('session key attached to every route', () => {
  it('registers the routes the test expects (the enumeration is not empty)', () => {
    const protectedRoutes = server.built.routes.filter((route) => !publicPaths.has(route.url));
    expect(protectedRoutes.length).toBeGreaterThan(20);
    expect(protectedRoutes.some((route) => route.method === 'HEAD')).toBe(true);
  });

  it('refuses every spelling of every protected route without a valid key, before any handler runs', async () => {
    const protectedRoutes = server.built.routes.filter((route) => !publicPaths.has(route.url));
    const unexpected: string[] = [];
    const attempts: { route: RegisteredRoute; target: string; headers: Record<string, string> }[] = [];
    for (const route of protectedRoutes) {
      for (const [index, target] of spellings(concrete(route), port).entries()) {
        attempts.push({ route, target, headers: {} });
        // A wrong key must not make a difference: checked on a share of the spellings.
        if (index % 4 === 0) attempts.push({ route, target, headers: { 'X-Session-API-Key': 'wrong' } });
      }
    }
    // A few connections at a time: the order does not matter, only that none gets through.
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let at = next++; at < attempts.length; at = next++) {
        const { route, target, headers } = attempts[at] as (typeof attempts)[number];
        const body = bodyFor(route);
        const response = await rawRequest(port, {
          method: route.method,
          target,
          headers,
          ...(body === undefined ? {} : { body }),
        });
        if (![400, 401, 403, 404].includes(response.status)) {
          unexpected.push(`${route.method} ${target} ${JSON.stringify(headers)} → ${response.status}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, () => worker()));
    const sent = attempts.length;
    expect(sent).toBeGreaterThan(5000);
    expect(unexpected).toEqual([]);
    expect(reached).toEqual([]);
  }, 180_000);

  it('answers the canonical spelling 401 {"detail":"Unauthorized"} and unknown routes a bare 404', async () => {
    const plain = await rawRequest(port, { target: `/api/conversations/${conversationId}` });
    expect(plain.status).toBe(401);
    expect(JSON.parse(plain.body)).toEqual({ detail: 'Unauthorized' });
    const unknown = await rawRequest(port, { target: '/api/nothing-here?session_api_key=secret-in-url' });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({ detail: 'Not Found' });
    expect(reached).toEqual([]);
  });

  it('lets a valid key through on every route (handler reached), whatever the spelling the router accepts', async () => {
    server.llm.push(...Array.from({ length: 20 }, () => finishReply('ok')));
    const protectedRoutes = server.built.routes
      .filter((route) => !publicPaths.has(route.url))
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    const missed: string[] = [];
    for (const route of protectedRoutes) {
      // The batch get only consults the manager when given ids.
      const path =
        route.url === '/api/conversations' && route.method !== 'POST'
          ? `/api/conversations?ids=${conversationId}`
          : concrete(route);
      // The path's first letter percent-encoded (`/%61pi/…`, `/%761/…`): the router decodes it to the same route.
      const encoded = `/%${(path.codePointAt(1) ?? 0).toString(16)}${path.slice(2)}`;
      for (const target of [path, encoded, `http://127.0.0.1:${port}${path}`]) {
        if (route.method === 'DELETE' && target !== path) continue;
        const before = reached.length;
        const body = bodyFor(route);
        const response = await rawRequest(port, {
          method: route.method,
          target,
          headers: { 'X-Session-API-Key': KEY },
          ...(body === undefined ? {} : { body }),
        });
        const handlerReached =
          reached.length > before ||
          (handlersWithoutManager.has(route.url) && [200, 403, 422].includes(response.status)) ||
          // The MCP face and the OpenAI gateway answer in their own protocol's shape, without a conversation.
          (route.url === '/api/mcp' && (response.body.includes('"jsonrpc"') || route.method === 'HEAD')) ||
          // The shell-event route's own 404 for the unknown id it is given (a HEAD answer carries no body).
          (route.url === '/api/bash/bash_events/:event_id' &&
            response.status === 404 &&
            (route.method === 'HEAD' || response.body.includes('Shell event not found'))) ||
          (route.url.startsWith('/v1/') &&
            ([200, 400].includes(response.status) ||
              // The gateway's own 404s (a model it does not serve, a path it does not know, a response it does not
              // hold), in OpenAI's shape.
              (response.status === 404 &&
                (route.method === 'HEAD' ||
                  /"code":"(model_not_found|unknown_url|response_not_found)"/.test(response.body)))));
        if (!handlerReached || response.status === 401 || response.status >= 500) {
          missed.push(`${route.method} ${target} → ${response.status} ${response.body.slice(0, 200)}`);
        }
      }
    }
    expect(missed).toEqual([]);
  });

  it('leaves the public routes open', async () => {
    // The viewer's files: a real one, named by the page itself.
    const page = await rawRequest(port, { target: '/' });
    const asset = /(?:src|href)="(\/assets\/[^"]+)"/.exec(page.body)?.[1];
    expect(asset).toBeDefined();
    for (const path of [
      ...publicUrls,
      asset ?? '/assets/missing',
      '/docs',
      '/docs/json',
      '/docs/static/swagger-ui.css',
    ]) {
      const response = await rawRequest(port, { target: path });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
  });
});

describe('session key on the event WebSocket', () => {
  it('never serves a conversation to an upgrade without a valid key, in any spelling of the path', async () => {
    const { built } = server;
    const id = (await built.manager.list())[0]?.id ?? conversationId;
    const before = reached.length;
    const message = JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'injected' }] });
    const outcomes: string[] = [];
    for (const target of spellings(`/sockets/events/${id}`, port)) {
      for (const attempt of [
        { firstFrame: message },
        { firstFrame: JSON.stringify({ type: 'auth', session_api_key: 'wrong' }) },
        { firstFrame: message, headers: { 'X-Session-API-Key': 'wrong' } },
      ]) {
        const result = await rawUpgrade(port, target, attempt);
        const refused = [400, 403, 404].includes(result.status);
        const closedUnauthenticated = result.status === 101 && result.closeCode === 4001 && result.frames.length === 0;
        if (!refused && !closedUnauthenticated) {
          outcomes.push(`${target} → ${result.status} close ${result.closeCode} frames ${result.frames.length}`);
        }
      }
    }
    expect(outcomes).toEqual([]);
    expect(reached.slice(before)).toEqual([]);
  });

  it('serves it with the key in the query, the header or the first frame', async () => {
    const manager: ConversationManager = server.built.manager;
    const id = (await manager.list())[0]?.id;
    expect(id).toBeDefined();
    const base = `ws://127.0.0.1:${port}/sockets/events/${id}`;
    for (const socket of [
      connectRecording(`${base}?session_api_key=${KEY}`),
      connectRecording(base, { headers: { 'X-Session-API-Key': KEY } }),
    ]) {
      await socket.waitFor((frames) => frames.length > 0);
      socket.ws.close();
    }
    const viaFrame = await rawUpgrade(port, `/sockets/events/${id}`, {
      firstFrame: JSON.stringify({ type: 'auth', session_api_key: KEY }),
      readFrames: 1,
    });
    expect(viaFrame.status).toBe(101);
    expect(viaFrame.frames.length).toBe(1);
  });
});
