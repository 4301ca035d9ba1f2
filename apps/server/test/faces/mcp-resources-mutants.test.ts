// What an MCP client sees of the face's resources beyond one read, judged by `@modelcontextprotocol/sdk`'s Client over
// streamable HTTP against a real server on 127.0.0.1: URIs of another scheme or authority, the ranges a refusal names,
// resources/list pages with more conversations than one page holds, and a session's subscriptions (its cap, a
// duplicate, a subscription made again).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUBSCRIPTIONS } from '../../src/faces/mcp/mcp-subscriptions.js';
import type { ServerConfigInput } from '../../src/index.js';
import { createRequest, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';

let server: TestServer;
const sessions: { client: Client; transport: StreamableHTTPClientTransport }[] = [];

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: { mcpConversation: createRequest(llm) as ServerConfigInput['mcpConversation'] },
  });
});
afterEach(async () => {
  for (const { client, transport } of sessions.splice(0)) {
    await transport.terminateSession();
    await client.close();
  }
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

async function connect(): Promise<Client> {
  const client = new Client({ name: 'x-mcp-resources-mutants', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`));
  await client.connect(transport);
  sessions.push({ client, transport });
  return client;
}

async function start(client: Client): Promise<string> {
  const started = (await client.callTool({ name: 'start_conversation', arguments: {} })) as CallToolResult;
  return (started.structuredContent as { conversation_id: string }).conversation_id;
}

async function conversationIds(client: Client): Promise<string[]> {
  const listed = (await client.callTool({ name: 'list_conversations', arguments: { limit: 200 } })) as CallToolResult;
  return (listed.structuredContent as { conversations: { conversation_id: string }[] }).conversations.map(
    (entry) => entry.conversation_id,
  );
}

describe('resource URIs that are not of this server', () => {
  it("refuses another scheme or another authority as invalid, even around a real conversation's id", async () => {
    const client = await connect();
    const id = await start(client);
    // The URI is read: with the id of a real conversation, only its scheme and authority make it not ours.
    for (const uri of [`other://conversations/${id}`, `x://elsewhere/${id}`, `x://elsewhere/${id}/events`]) {
      await expect(client.readResource({ uri }), uri).rejects.toMatchObject({
        code: -32602,
        data: { reason: 'invalid_resource_uri', uri },
      });
    }
  });

  it('names the range each query parameter takes: start from 0, limit from 1 to 1000', async () => {
    const client = await connect();
    const id = await start(client);
    const events = `x://conversations/${id}/events`;
    await expect(client.readResource({ uri: `${events}?start=1000000000` })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('start must be an integer from 0 to 999999999'),
    });
    for (const limit of ['0', '1001']) {
      await expect(client.readResource({ uri: `${events}?limit=${limit}` }), limit).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('limit must be an integer from 1 to 1000'),
      });
    }
  });
});

describe('the events template', () => {
  it('states the defaults and the bound the server applies to start and limit', async () => {
    const client = await connect();
    const id = await start(client);
    await client.callTool({ name: 'send_message', arguments: { conversation_id: id, message: 'an event to read' } });
    const { resourceTemplates } = await client.listResourceTemplates();
    const description = resourceTemplates.find((template) => template.name === 'conversation-events')?.description;
    const stated = /start \(default (\d+)\), limit events \(default (\d+), at most (\d+)\)/.exec(description ?? '');
    expect(stated).not.toBeNull();
    const [, defaultStart, defaultLimit, most] = stated ?? [];
    const events = `x://conversations/${id}/events`;
    const text = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    expect(await text(events)).toBe(await text(`${events}?start=${defaultStart}&limit=${defaultLimit}`));
    expect(JSON.parse(await text(events)).items.length).toBeGreaterThan(0);
    await expect(client.readResource({ uri: `${events}?limit=${most}` })).resolves.toBeDefined();
    await expect(client.readResource({ uri: `${events}?limit=${Number(most) + 1}` })).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe('resources/list pages', () => {
  it('holds fifty conversations in one page, and gives a cursor to the rest once there are more', async () => {
    const client = await connect();
    const existing = (await conversationIds(client)).length;
    for (let index = existing; index < 50; index += 1) await start(client);
    const whole = await client.listResources();
    expect(whole.resources).toHaveLength(100);
    expect(whole).not.toHaveProperty('nextCursor');

    await start(client);
    const ids = await conversationIds(client);
    expect(ids).toHaveLength(51);
    const first = await client.listResources();
    expect(first.resources).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listResources({ cursor: first.nextCursor });
    expect(second.resources).toHaveLength(2);
    expect(second).not.toHaveProperty('nextCursor');
    // Every conversation's state and events, each once across the pages.
    const uris = [...first.resources, ...second.resources].map((resource) => resource.uri);
    expect(new Set(uris).size).toBe(102);
    for (const id of ids) expect(uris).toContain(`x://conversations/${id}`);
  });
});

describe('subscriptions of one session', () => {
  it(`holds at most ${MAX_SUBSCRIPTIONS} at once, refusing one more until one is given up`, async () => {
    const client = await connect();
    const id = await start(client);
    const uri = (offset: number) => `x://conversations/${id}/events?start=${offset}`;
    for (let offset = 0; offset < MAX_SUBSCRIPTIONS; offset += 1) await client.subscribeResource({ uri: uri(offset) });
    await expect(client.subscribeResource({ uri: uri(MAX_SUBSCRIPTIONS) })).rejects.toMatchObject({
      code: -32600,
      data: { reason: 'too_many_subscriptions', uri: uri(MAX_SUBSCRIPTIONS), max: MAX_SUBSCRIPTIONS },
    });
    // A resource already watched is no new subscription.
    await expect(client.subscribeResource({ uri: uri(0) })).resolves.toEqual({});
    await client.unsubscribeResource({ uri: uri(0) });
    await expect(client.subscribeResource({ uri: uri(MAX_SUBSCRIPTIONS) })).resolves.toEqual({});
  });

  it('keeps one watch for a resource subscribed twice, which one unsubscribe stops', async () => {
    const client = await connect();
    const id = await start(client);
    const managed = await server.built.manager.require(id);
    const uri = `x://conversations/${id}`;
    await client.subscribeResource({ uri });
    await client.subscribeResource({ uri });
    expect(managed.isReleasable).toBe(false);
    await client.unsubscribeResource({ uri });
    expect(managed.isReleasable).toBe(true);
  });

  it('notifies again a resource subscribed to again after an unsubscribe', async () => {
    const client = await connect();
    const id = await start(client);
    const uri = `x://conversations/${id}`;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });
    await client.subscribeResource({ uri });
    await client.unsubscribeResource({ uri });
    await client.subscribeResource({ uri });
    await client.callTool({ name: 'send_message', arguments: { conversation_id: id, message: 'again' } });
    await waitFor(async () => updated.includes(uri));
  });
});
