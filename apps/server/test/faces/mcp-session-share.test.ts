// Each principal's share of the live MCP sessions (`mcpMaxSessionsPerPrincipal`), judged by
// `@modelcontextprotocol/sdk`'s client against a real server with two session keys: one key that fills its share is
// refused (HTTP 503, JSON-RPC -32000, naming the per-principal limit) while the other key still opens sessions, and
// no live session of either is ended for it. The server-wide cap still holds across keys and names itself.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';

const KEY_A = 'mcp-share-key-a';
const KEY_B = 'mcp-share-key-b';

let server: TestServer | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await server?.stop();
  if (server !== undefined) await removeDir(server.dataDir);
  server = undefined;
});

async function start(config: Partial<ServerConfigInput>): Promise<string> {
  server = await startTestServer({ config: { apiKeys: [KEY_A, KEY_B], ...config } });
  return server.url;
}

async function connect(url: string, key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
    requestInit: { headers: { 'X-Session-API-Key': key } },
  });
  const client = new Client({ name: 'x-mcp-share-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** An `initialize` over plain HTTP with `key`: its status, and its JSON body when it is refused. */
async function initialize(url: string, key: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/api/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'X-Session-API-Key': key,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
    }),
  });
  if (response.status === 200) {
    await response.body?.cancel();
    return { status: 200, body: undefined };
  }
  return { status: response.status, body: await response.json() };
}

const refusal = (message: RegExp) => ({
  status: 503,
  body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(message) } },
});

const PRINCIPAL_LIMIT = /one principal \(session key\) may hold at most 2 live sessions \(mcpMaxSessionsPerPrincipal/;

describe("each principal's share of the live MCP sessions", () => {
  it('refuses the key that filled its share, lets another key in, and ends no live session', async () => {
    const url = await start({ mcpMaxSessions: 10, mcpMaxSessionsPerPrincipal: 2 });
    const a = [await connect(url, KEY_A), await connect(url, KEY_A)];

    await expect(connect(url, KEY_A)).rejects.toThrow(PRINCIPAL_LIMIT);
    expect(await initialize(url, KEY_A)).toEqual(refusal(PRINCIPAL_LIMIT));

    const b = [await connect(url, KEY_B), await connect(url, KEY_B)];
    await expect(connect(url, KEY_B)).rejects.toThrow(PRINCIPAL_LIMIT);
    for (const client of [...a, ...b]) expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('keeps the server-wide cap across keys, naming it when it is the one met', async () => {
    const url = await start({ mcpMaxSessions: 3, mcpMaxSessionsPerPrincipal: 2 });
    await connect(url, KEY_A);
    await connect(url, KEY_A);
    const b = await connect(url, KEY_B);
    expect(await initialize(url, KEY_B)).toEqual(
      refusal(/this server keeps at most 3 live sessions \(mcpMaxSessions,/),
    );
    // The key at its own share is told of its share, which is what it can act on.
    expect(await initialize(url, KEY_A)).toEqual(refusal(PRINCIPAL_LIMIT));
    expect((await b.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('gives each key a quarter of mcpMaxSessions when no share is set', async () => {
    const url = await start({ mcpMaxSessions: 8 });
    await connect(url, KEY_A);
    await connect(url, KEY_A);
    expect(await initialize(url, KEY_A)).toEqual(refusal(PRINCIPAL_LIMIT));
    expect((await initialize(url, KEY_B)).status).toBe(200);
  });
});
