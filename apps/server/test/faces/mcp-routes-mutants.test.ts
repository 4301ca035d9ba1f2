// The MCP endpoint's own answers, before any session's transport sees a request: what a request without a session
// is told (on every method), the JSON-RPC errors of bodies that are not JSON-RPC, a Last-Event-ID read only where a
// stream resumes, the session key taken as a bearer token on every method, and the open streams ended when the
// server stops. A real server on 127.0.0.1, spoken to in raw HTTP where no SDK client would send such requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';

const KEY = 'mcp-routes-key';
const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'routes', version: '1.0.0' } },
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: [KEY] } });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

async function send(method: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${server.url}/api/mcp`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return response;
}

/** A session opened in raw HTTP with `auth` (initialize, then its initialized notification); its id. */
async function openSession(auth: Record<string, string>): Promise<string> {
  const initialized = await send('POST', { ...JSON_AND_SSE, ...auth }, INITIALIZE);
  expect(initialized.status).toBe(200);
  await initialized.text();
  const id = initialized.headers.get('mcp-session-id') ?? '';
  expect(id).not.toBe('');
  const headers = { ...JSON_AND_SSE, ...auth, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
  const notified = await send('POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(notified.status).toBe(202);
  return id;
}

describe('the MCP endpoint without a session', () => {
  it('tells a client that sends anything but initialize to initialize first, on every method', async () => {
    const auth = { 'X-Session-API-Key': KEY };
    const answers = [
      await send('POST', { ...JSON_AND_SSE, ...auth }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      await send('POST', { ...JSON_AND_SSE, ...auth }, [{ jsonrpc: '2.0', id: 3, method: 'ping' }]),
      await send('POST', { ...JSON_AND_SSE, ...auth }, { jsonrpc: '2.0', method: 'notifications/initialized' }),
      await send('GET', { accept: 'text/event-stream', ...auth }),
      await send('DELETE', auth),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'No mcp-session-id header: a session starts with an initialize request' },
      });
    }
  });

  it('answers bodies that are not JSON-RPC with the JSON-RPC error that says why', async () => {
    const auth = { 'X-Session-API-Key': KEY };
    const notRpc = await send('POST', { ...JSON_AND_SSE, ...auth }, { jsonrpc: '1.0', id: 1, method: 'ping' });
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: the body is not a JSON-RPC 2.0 message or a batch of them' },
    });
    const notJson = await send('POST', { ...JSON_AND_SSE, ...auth }, '[{"jsonrpc": "2.0"');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringMatching(/^Parse error: ./) },
    });
  });
});

describe('the MCP endpoint in a session', () => {
  it('answers a POST that carries a Last-Event-ID (only a GET resumes a stream)', async () => {
    const auth = { 'X-Session-API-Key': KEY };
    const id = await openSession(auth);
    const headers = { ...JSON_AND_SSE, ...auth, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
    const listed = await send(
      'POST',
      { ...headers, 'last-event-id': '999999' },
      { jsonrpc: '2.0', id: 9, method: 'ping' },
    );
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain('"id":9');
    expect((await send('DELETE', headers)).status).toBe(200);
  });

  it('refuses to resume from an event id it never gives (0, a leading zero, empty) as never sent: 400, not 410', async () => {
    const auth = { 'X-Session-API-Key': KEY };
    const id = await openSession(auth);
    const session = { ...auth, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
    // Every answer is an event of the session: ids 1 and up are used.
    const pinged = await send('POST', { ...JSON_AND_SSE, ...session }, { jsonrpc: '2.0', id: 5, method: 'ping' });
    await pinged.text();
    for (const lastEventId of ['0', '01', '']) {
      const resumed = await send('GET', { ...session, accept: 'text/event-stream', 'last-event-id': lastEventId });
      expect(resumed.status).toBe(400);
      expect(await resumed.json()).toMatchObject({
        error: {
          code: -32000,
          message: `Event '${lastEventId}' was never sent in this session: resume with the id of an event it sent`,
        },
      });
    }
    expect((await send('DELETE', session)).status).toBe(200);
  });

  it('takes the session key as a bearer token to open the stream and to end the session', async () => {
    const auth = { Authorization: `Bearer ${KEY}` };
    const id = await openSession(auth);
    const session = { ...auth, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' };
    const stream = await send('GET', { ...session, accept: 'text/event-stream' });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.body?.cancel();
    expect((await send('DELETE', session)).status).toBe(200);
    expect((await send('DELETE', session)).status).toBe(404);
    expect((await send('GET', { ...session, Authorization: 'Bearer wrong' })).status).toBe(401);
  });
});

describe('stopping the server', () => {
  it('ends the streams its MCP sessions have open', async () => {
    const stopping = await startTestServer();
    try {
      const initialized = await fetch(`${stopping.url}/api/mcp`, {
        method: 'POST',
        headers: JSON_AND_SSE,
        body: JSON.stringify(INITIALIZE),
      });
      await initialized.text();
      const id = initialized.headers.get('mcp-session-id') ?? '';
      const stream = await fetch(`${stopping.url}/api/mcp`, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      });
      expect(stream.status).toBe(200);
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      const ended = (async () => {
        for (;;) if ((await reader.read()).done) return true;
      })().catch(() => true);
      await stopping.stop();
      expect(await ended).toBe(true);
    } finally {
      await removeDir(stopping.dataDir);
    }
  });
});

describe("the MCP endpoint's OpenAPI description", () => {
  it('describes the JSON-RPC body, the stream it answers with, and the refusals', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const post = document.paths['/api/mcp']?.post;
    expect(JSON.stringify(post?.requestBody)).toContain('A JSON-RPC 2.0 message of MCP');
    expect(JSON.stringify(post?.responses['200'])).toContain('text/event-stream (responses, progress notifications)');
    expect(JSON.stringify(post?.responses['401'])).toContain('No session key, or a wrong one');
    expect(JSON.stringify(post?.responses['410'])).toContain('-32001 unknown session (404)');
  });
});

describe('idle MCP sessions on a real server', () => {
  it('are ended by the first request after the idle limit passed, long before the background sweep', async () => {
    let now = 1_000_000;
    // The background sweep runs once a minute of real time: only the route's own check can end it within the wait.
    const idle = await startTestServer({ build: { clock: () => now, mcpSessions: { idleMs: 600_000 } } });
    try {
      const initialized = await fetch(`${idle.url}/api/mcp`, {
        method: 'POST',
        headers: JSON_AND_SSE,
        body: JSON.stringify(INITIALIZE),
      });
      await initialized.text();
      const id = initialized.headers.get('mcp-session-id') ?? '';
      const ping = async () => {
        const response = await fetch(`${idle.url}/api/mcp`, {
          method: 'POST',
          headers: { ...JSON_AND_SSE, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
        });
        await response.text();
        return response.status;
      };
      expect(await ping()).toBe(200);
      await waitFor(async () => {
        now += 600_001;
        return (await ping()) === 404;
      }, 20_000);
    } finally {
      await idle.stop();
      await removeDir(idle.dataDir);
    }
  });
});
