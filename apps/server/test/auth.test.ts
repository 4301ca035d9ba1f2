import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from './helpers.js';
import { refusalMessage } from './support/refusal-message.js';

const KEY = 'session-key-1';
let server: TestServer;
let conversationId: string;

beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: [KEY, 'session-key-2'] } });
  conversationId = await (async () => {
    const { json } = await server.call(
      'POST',
      '/api/conversations',
      {
        agent: { llm: { model: 'gpt-test', base_url: server.llm.baseURL } },
      },
      { 'X-Session-API-Key': KEY },
    );
    return (json as { id: string }).id;
  })();
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** The protocol faces' endpoints under /api, whose refusals are in their own shapes. */
const PROTOCOL_FACES: ReadonlySet<string> = new Set(['/api/ag-ui', '/api/a2a', '/api/mcp']);

/** A concrete path for a route pattern, pointing at a real conversation. */
function concrete(url: string): string {
  return url.replace(':conversation_id', conversationId).replace(':event_id', 'no-such-event');
}

describe('session API keys', () => {
  it('guards every registered /api route: 401 without a key or with a wrong one, not 401 with a valid one', async () => {
    const apiRoutes = server.built.routes.filter((route) => route.url.startsWith('/api') && route.method !== 'HEAD');
    expect(apiRoutes.length).toBeGreaterThan(15);
    for (const route of apiRoutes) {
      const path = concrete(route.url);
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const without = await server.call(route.method, path, body);
      // The REST API's bare `{detail}`; a protocol face's refusal is in its own shape, its message saying the same.
      const face = PROTOCOL_FACES.has(route.url);
      expect({ route: `${route.method} ${route.url}`, status: without.status, json: without.json }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 401,
        json: face ? expect.anything() : { detail: 'Unauthorized' },
      });
      expect(refusalMessage(without.json)).toMatch(/^Unauthorized/);
      const wrong = await server.call(route.method, path, body, { 'X-Session-API-Key': 'wrong' });
      expect({ route: route.url, status: wrong.status }).toEqual({ route: route.url, status: 401 });
    }
    // Valid keys, header name in any case. DELETE last so the conversation exists for the others.
    const ordered = [...apiRoutes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const [index, route] of ordered.entries()) {
      const header: Record<string, string> =
        index % 2 === 0 ? { 'x-session-api-key': KEY } : { 'X-SESSION-API-KEY': 'session-key-2' };
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const withKey = await server.call(route.method, concrete(route.url), body, header);
      expect({ route: `${route.method} ${route.url}`, unauthorized: withKey.status === 401 }).toEqual({
        route: `${route.method} ${route.url}`,
        unauthorized: false,
      });
    }
  });

  it('leaves health and info routes open', async () => {
    for (const path of ['/alive', '/health', '/ready', '/server_info', '/openapi.json']) {
      expect({ path, status: (await server.call('GET', path)).status }).toEqual({ path, status: 200 });
    }
  });
});
