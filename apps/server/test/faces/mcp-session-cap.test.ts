// The cap on live MCP sessions (`mcpMaxSessions`), judged by `@modelcontextprotocol/sdk`'s client against a real
// server: an initialize beyond it gets HTTP 503 with a JSON-RPC error naming the limit, the live sessions go on
// untouched, an ended session frees its slot, and idle expiry (by the injected clock) still frees the idle ones.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';

let server: TestServer | undefined;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await server?.stop();
  if (server !== undefined) await removeDir(server.dataDir);
  server = undefined;
});

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`));
  const client = new Client({ name: 'x-mcp-cap-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** An `initialize` over plain HTTP: its status, and its JSON body when it is refused. */
async function initialize(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
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

describe('the cap on live MCP sessions', () => {
  it('refuses a session over the cap with 503, keeps the live ones, and frees slots on end and idle expiry', async () => {
    let now = 1_000_000;
    server = await startTestServer({
      config: { mcpMaxSessions: 2 },
      build: { clock: () => now, mcpSessions: { idleMs: 60_000 } },
    });
    const url = server.url;
    const first = await connect(url);
    const second = await connect(url);

    await expect(connect(url)).rejects.toThrow(/at most 2 live sessions \(mcpMaxSessions/);
    expect(await initialize(url)).toEqual({
      status: 503,
      body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('at most 2 live') } },
    });
    // The live sessions were not touched.
    expect((await first.client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await second.client.listTools()).tools.length).toBeGreaterThan(0);

    // Ending one (DELETE) frees its slot.
    await first.transport.terminateSession();
    const third = await connect(url);
    expect((await third.client.listTools()).tools.length).toBeGreaterThan(0);

    // A client gone without ending its session holds its slot until it is idle past the limit, by the clock.
    await second.client.close();
    expect((await initialize(url)).status).toBe(503);
    // (The third client's session is not idle however far the clock goes: its client holds its stream open.)
    await waitFor(async () => {
      now += 60_001;
      const { status } = await initialize(url);
      return status === 200;
    });
    expect((await third.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('lets no more than the cap in when many initialize at once', async () => {
    server = await startTestServer({ config: { mcpMaxSessions: 3 } });
    const url = server.url;
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => initialize(url)))).map(({ status }) => status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 503)).toHaveLength(5);
  });
});
