// The MCP face judged by the official SDK's Client where a careless or older client goes: requests whose params do
// not fit the method (-32602, never -32603 "Internal error"), cursors this server never gave, methods it does not
// offer (-32601), protocol-version negotiation with an older client, bodies that are not JSON-RPC (answered in
// JSON-RPC, never a 500), batches only where MCP has them (2025-03-26), and the session key given as MCP's bearer token. A real server on 127.0.0.1.

import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  EmptyResultSchema,
  type JSONRPCMessage,
  ReadResourceResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;
let client: Client;
const KEY = 'mcp-edge-key';
const auth = { 'X-Session-API-Key': KEY };

async function connect(url: string, options: ConstructorParameters<typeof StreamableHTTPClientTransport>[1] = {}) {
  const mcp = new Client({ name: 'x-mcp-edges', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), options);
  await mcp.connect(transport);
  return { mcp, transport };
}

beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: [KEY], bodyLimit: 64 * 1024 } });
  ({ mcp: client } = await connect(server.url, { requestInit: { headers: auth } }));
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await removeDir(server.dataDir);
});

/** POSTs `body` as it is (no SDK can send malformed JSON-RPC), with the session key. */
async function post(body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth, ...headers },
    body,
  });
  return { status: response.status, json: (await response.json()) as { id: unknown; error?: { code: number } } };
}

describe('MCP face: malformed requests and pagination, through the SDK client', () => {
  it('answers params that do not fit the method with -32602 Invalid params', async () => {
    await expect(
      client.request({ method: 'resources/read', params: {} }, ReadResourceResultSchema),
    ).rejects.toMatchObject({ code: -32602, data: { reason: 'invalid_params', path: 'params.uri' } });
    await expect(
      client.request({ method: 'resources/subscribe', params: { uri: 42 } } as never, EmptyResultSchema),
    ).rejects.toMatchObject({ code: -32602 });
    // tools/call whose arguments are no object, or with no tool name: the SDK's own check, still -32602.
    await expect(client.callTool({ name: 'run', arguments: 'conversation 1' as never })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.callTool({ arguments: {} } as never)).rejects.toMatchObject({ code: -32602 });
    // The session is unharmed.
    await expect(client.ping()).resolves.toEqual({});
  });

  it('refuses a cursor it never gave with -32602, for every list', async () => {
    await expect(client.listTools({ cursor: 'page-2' })).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'invalid_cursor', cursor: 'page-2' },
    });
    await expect(client.listResourceTemplates({ cursor: 'page-2' })).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'invalid_cursor' },
    });
    await expect(client.listResources({ cursor: 'page-2' })).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'invalid_cursor', cursor: 'page-2' },
    });
    // Without a cursor, the one page and no nextCursor.
    const tools = await client.listTools();
    expect(tools.tools).toHaveLength(7);
    expect(tools.nextCursor).toBeUndefined();
  });

  it('answers the methods of capabilities it does not declare with -32601 Method not found', async () => {
    expect(client.getServerCapabilities()).not.toHaveProperty('prompts');
    await expect(client.listPrompts()).rejects.toMatchObject({ code: -32601 });
    await expect(client.getPrompt({ name: 'anything' })).rejects.toMatchObject({ code: -32601 });
    await expect(client.setLoggingLevel('info')).rejects.toMatchObject({ code: -32601 });
  });

  it('answers bodies that are not JSON-RPC in JSON-RPC: -32700 for no JSON, -32600 for no JSON-RPC message', async () => {
    const notJson = await post('{"jsonrpc": "2.0", "method": ');
    expect(notJson).toMatchObject({ status: 400, json: { id: null, error: { code: -32700 } } });
    const notRpc = await post(JSON.stringify({ id: 1, method: 'ping' }));
    expect(notRpc).toMatchObject({ status: 400, json: { id: null, error: { code: -32600 } } });
    // A body over bodyLimit is never read: a 413 whose JSON-RPC error (-32600) names the limit.
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(100 * 1024) } });
    expect(await post(huge)).toMatchObject({
      status: 413,
      json: { id: null, error: { code: -32600, message: expect.stringContaining("server's limit of") } },
    });
  });
});

/** Makes the SDK client offer `version` in its initialize, as a client built for that revision would. */
function offeringVersion(inner: Transport, version: string): Transport {
  const send = inner.send.bind(inner);
  inner.send = (message: JSONRPCMessage, options) => {
    const offered =
      'method' in message && message.method === 'initialize'
        ? { ...message, params: { ...message.params, protocolVersion: version } }
        : message;
    return send(offered, options);
  };
  return inner;
}

describe('MCP face: sessions and headers', () => {
  it('refuses a session ended with DELETE when a new SDK transport reuses its id (404), and headers it does not speak', async () => {
    const { mcp, transport } = await connect(server.url, { requestInit: { headers: auth } });
    const sessionId = transport.sessionId ?? '';
    await transport.terminateSession();
    await mcp.close();
    const reuse = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
      sessionId,
      requestInit: { headers: auth },
    });
    await reuse.start();
    await expect(reuse.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toMatchObject({ code: 404 });
    await reuse.close();

    const { transport: live } = await connect(server.url, { requestInit: { headers: auth } });
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
    const session = { 'mcp-session-id': live.sessionId ?? '' };
    const unsupported = await post(ping, { ...session, 'mcp-protocol-version': '1999-01-01' });
    expect(unsupported).toMatchObject({ status: 400, json: { error: { code: -32000 } } });
    const wrongSession = await post(ping, { 'mcp-session-id': 'not-a-session' });
    expect(wrongSession).toMatchObject({ status: 404, json: { error: { code: -32001 } } });
    const noSession = await post(ping);
    expect(noSession).toMatchObject({ status: 400, json: { error: { code: -32000 } } });
    await live.terminateSession();
    await live.close();
  });
});

describe('MCP face: JSON-RPC batches', () => {
  const initialize = (protocolVersion: string) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'x-batch', version: '1.0.0' } },
  });
  const pings = JSON.stringify([
    { jsonrpc: '2.0', id: 2, method: 'ping' },
    { jsonrpc: '2.0', id: 3, method: 'ping' },
  ]);

  it('refuses a batch in a session of a revision without batches (2025-06-18 on), and an initialize in one', async () => {
    const { transport } = await connect(server.url, { requestInit: { headers: auth } });
    const session = { 'mcp-session-id': transport.sessionId ?? '' };
    for (const version of ['2025-06-18', transport.protocolVersion ?? '']) {
      const refused = await post(pings, { ...session, 'mcp-protocol-version': version });
      expect(refused, version).toMatchObject({ status: 400, json: { id: null, error: { code: -32600 } } });
    }
    const batchedInitialize = await post(JSON.stringify([initialize('2025-03-26')]));
    expect(batchedInitialize).toMatchObject({ status: 400, json: { id: null, error: { code: -32600 } } });
    await transport.terminateSession();
    await transport.close();
  });

  it('answers every request of a batch in a 2025-03-26 session, the revision that has them', async () => {
    const send = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/api/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...auth,
          ...headers,
        },
        body,
      });
    const opened = await send(JSON.stringify(initialize('2025-03-26')));
    expect(opened.status).toBe(200);
    await opened.text();
    const session = {
      'mcp-session-id': opened.headers.get('mcp-session-id') ?? '',
      'mcp-protocol-version': '2025-03-26',
    };
    expect((await send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session)).status).toBe(
      202,
    );
    const response = await send(pings, session);
    expect(response.status).toBe(200);
    const answered = (await response.text()).split('\n').filter((line) => line.startsWith('data: {'));
    expect(answered.map((line) => (JSON.parse(line.slice(6)) as { id: number }).id).sort()).toEqual([2, 3]);
    await fetch(`${server.url}/api/mcp`, { method: 'DELETE', headers: { ...auth, ...session } });
  });
});

describe('MCP face: protocol versions and the bearer token', () => {
  for (const version of SUPPORTED_PROTOCOL_VERSIONS.filter((offered) => offered !== SUPPORTED_PROTOCOL_VERSIONS[0])) {
    it(`negotiates ${version} with a client that offers it, and serves it`, async () => {
      const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: auth },
      });
      const older = new Client({ name: 'x-mcp-older', version: '1.0.0' });
      await older.connect(offeringVersion(transport, version));
      expect(transport.protocolVersion).toBe(version);
      expect((await older.listTools()).tools.map((tool) => tool.name)).toContain('run');
      await older.close();
    });
  }

  it('takes the session key as the bearer token of an auth provider, and refuses a wrong one', async () => {
    const provider = (token: string): OAuthClientProvider => ({
      redirectUrl: undefined,
      clientMetadata: { redirect_uris: [] },
      clientInformation: () => undefined,
      tokens: () => ({ access_token: token, token_type: 'Bearer' }),
      saveTokens: () => undefined,
      redirectToAuthorization: () => undefined,
      saveCodeVerifier: () => undefined,
      codeVerifier: () => '',
    });
    const { mcp } = await connect(server.url, { authProvider: provider(KEY) });
    expect((await mcp.listTools()).tools).toHaveLength(7);
    await mcp.close();
    const headed = await connect(server.url, { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } });
    await expect(headed.mcp.ping()).resolves.toEqual({});
    await headed.mcp.close();
    await expect(
      connect(server.url, { requestInit: { headers: { Authorization: 'Bearer wrong' } } }),
    ).rejects.toMatchObject({ code: 401 });
  });
});
