// An MCP session belongs to the principal (session key) that opened it. A client holding another key that learns the
// session's id (a log, a proxy, a shared screen) is answered as for a session that does not exist, on every method:
// it can neither send into the session, nor take its stream, nor resume that stream, nor end it; and the session goes
// on for its owner. Judged by `@modelcontextprotocol/sdk`'s Client joining by id, against a real server on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';

const OWNER = 'mcp-owner-key';
const INTRUDER = 'mcp-intruder-key';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: [OWNER, INTRUDER] } });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const endpoint = () => new URL(`${server.url}/api/mcp`);

async function openSession(headers: Record<string, string>) {
  const transport = new StreamableHTTPClientTransport(endpoint(), { requestInit: { headers } });
  const client = new Client({ name: 'x-mcp-owner', version: '1.0.0' });
  await client.connect(transport);
  const id = transport.sessionId;
  if (id === undefined) throw new Error('the server gave the session no id');
  return { client, transport, id };
}

/** A transport that joins session `id` without initializing, as the SDK lets a client that knows an id. */
const joining = (id: string, headers: Record<string, string>) =>
  new StreamableHTTPClientTransport(endpoint(), { sessionId: id, requestInit: { headers } });

/** What the endpoint answers a raw request naming session `id`: its status and JSON-RPC error. */
async function answerFor(method: 'GET' | 'DELETE', id: string, headers: Record<string, string>) {
  const response = await fetch(endpoint(), {
    method,
    headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18', ...headers },
  });
  return { status: response.status, body: (await response.json()) as { error: { code: number; message: string } } };
}

describe("another principal's MCP session", () => {
  it('is not found for a client with another key, on every method, and goes on for its owner', async () => {
    const owner = await openSession({ 'X-Session-API-Key': OWNER });
    const intruder = { 'X-Session-API-Key': INTRUDER };
    const notFound = (id: string) => ({
      status: 404,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32001,
          message: `MCP session '${id}' not found (ended, or this server restarted): initialize again`,
        },
      },
    });
    // The answer a session that never existed gets: the intruder learns nothing more.
    const unknown = randomUUID();
    expect(await answerFor('DELETE', unknown, intruder)).toEqual(notFound(unknown));

    // Sending into it, as an SDK client that joins by id.
    const joined = new Client({ name: 'x-mcp-intruder', version: '1.0.0' });
    const transport = joining(owner.id, intruder);
    await joined.connect(transport);
    await expect(joined.request({ method: 'ping' }, EmptyResultSchema)).rejects.toMatchObject({ code: 404 });
    await expect(
      joined.callTool({ name: 'start_conversation', arguments: {} }, undefined, { timeout: 30_000 }),
    ).rejects.toMatchObject({ code: 404 });
    // Ending it, through the SDK's DELETE and in raw HTTP; taking its stream, or resuming a stream it sent.
    await expect(transport.terminateSession()).rejects.toMatchObject({ code: 404 });
    expect(await answerFor('DELETE', owner.id, intruder)).toEqual(notFound(owner.id));
    expect(await answerFor('GET', owner.id, intruder)).toEqual(notFound(owner.id));
    expect(await answerFor('GET', owner.id, { ...intruder, 'last-event-id': '1' })).toEqual(notFound(owner.id));
    await joined.close();

    // The owner's session is whole: it answers, runs tools, and ends only when its owner ends it.
    await expect(owner.client.ping()).resolves.toEqual({});
    const started = (await owner.client.callTool({ name: 'list_conversations', arguments: {} })) as CallToolResult;
    expect(started.isError).toBeUndefined();
    await owner.transport.terminateSession();
    expect((await answerFor('DELETE', owner.id, { 'X-Session-API-Key': OWNER })).status).toBe(404);
    await owner.client.close();
  });

  it('is the same session for its owner whichever way the key is presented', async () => {
    const owner = await openSession({ 'X-Session-API-Key': OWNER });
    const asBearer = new Client({ name: 'x-mcp-owner-bearer', version: '1.0.0' });
    const transport = joining(owner.id, { Authorization: `Bearer ${OWNER}` });
    await asBearer.connect(transport);
    await expect(asBearer.request({ method: 'ping' }, EmptyResultSchema)).resolves.toEqual({});
    await transport.terminateSession();
    await expect(owner.client.ping()).rejects.toMatchObject({ code: 404 });
    await asBearer.close();
    await owner.client.close();
  });
});
