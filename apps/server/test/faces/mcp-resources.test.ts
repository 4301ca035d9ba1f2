// The MCP face's resources, judged by the official SDK's Client over streamable HTTP against a real server on
// 127.0.0.1 (the scripted OpenAI-protocol model): templates, listing, the state and pages of the log in OpenHands
// JSON, typed errors, and subscriptions that notify when the log grows and end with the session.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  ResourceUpdatedNotificationSchema,
  type TextResourceContents,
} from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { serializeEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';

let server: TestServer;
let client: Client;
let transport: StreamableHTTPClientTransport;
const CALL = { timeout: 120_000, resetTimeoutOnProgress: true };

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: { mcpConversation: createRequest(llm) as ServerConfigInput['mcpConversation'] },
  });
  client = new Client({ name: 'x-mcp-resources-test', version: '1.0.0' });
  transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`));
  await client.connect(transport);
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await removeDir(server.dataDir);
});

async function finishedConversation(answer: string): Promise<string> {
  server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo resource' } }] }, finishReply(answer));
  const started = (await client.callTool({ name: 'start_conversation', arguments: {} })) as CallToolResult;
  const id = (started.structuredContent as { conversation_id: string }).conversation_id;
  await client.callTool({ name: 'run', arguments: { conversation_id: id, message: 'Go' } }, undefined, CALL);
  return id;
}

async function readJson(uri: string): Promise<Record<string, unknown>> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((contents[0] as TextResourceContents).text) as Record<string, unknown>;
}

describe('MCP resources on the conversation log', () => {
  it('offers the two templates and lists each conversation as its state and events', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'x://conversations/{conversation_id}',
      'x://conversations/{conversation_id}/events{?start,limit}',
    ]);
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
    const id = await finishedConversation('Listed.');
    const { resources } = await client.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: `x://conversations/${id}`, mimeType: 'application/json' }),
    );
    expect(resources).toContainEqual(
      expect.objectContaining({ uri: `x://conversations/${id}/events?start=0&limit=100` }),
    );
    await expect(client.listResources({ cursor: 'nope' })).rejects.toMatchObject({
      code: -32602,
      data: { reason: 'invalid_cursor', cursor: 'nope' },
    });
  });

  it('reads the state as ConversationInfo and the whole log page by page, gap-free, as stored', async () => {
    const id = await finishedConversation('Read me.');
    const state = await readJson(`x://conversations/${id}`);
    expect(state).toMatchObject({ id, execution_status: 'finished' });
    const { json } = await server.call('GET', `/api/conversations/${id}`);
    expect(state).toEqual(json);

    const log = (await server.built.manager.require(id)).log;
    const stored = (await log.range(0, log.length)).map(serializeEvent);
    const read: string[] = [];
    let start: string | null = '0';
    while (start !== null) {
      const page = await readJson(`x://conversations/${id}/events?start=${start}&limit=2`);
      const items = page.items as Record<string, unknown>[];
      expect(items.length).toBeLessThanOrEqual(2);
      read.push(...items.map((item) => JSON.stringify(item)));
      start = page.next_page_id as string | null;
    }
    expect(read.map((text) => JSON.parse(text))).toEqual(stored.map((text) => JSON.parse(text)));
    expect(read.length).toBeGreaterThan(4);
    const past = await readJson(`x://conversations/${id}/events?start=${stored.length + 5}`);
    expect(past).toEqual({ items: [], next_page_id: null });
  });

  it('refuses unknown conversations and malformed URIs with typed errors', async () => {
    const unknown = '0b3a5a8e-7a61-4c1e-9a55-3f4a1f0e2b7c';
    await expect(client.readResource({ uri: `x://conversations/${unknown}` })).rejects.toMatchObject({
      code: -32002,
      data: { reason: 'resource_not_found', uri: `x://conversations/${unknown}`, conversation_id: unknown },
    });
    await expect(client.readResource({ uri: `x://conversations/${unknown}/events` })).rejects.toMatchObject({
      code: -32002,
    });
    for (const uri of [
      'file:///etc/passwd',
      'x://conversations/',
      'x://conversations/a/b',
      `x://conversations/${unknown}?start=1`,
      `x://conversations/${unknown}/events?start=-1`,
      `x://conversations/${unknown}/events?limit=0`,
      `x://conversations/${unknown}/events?limit=100000`,
      `x://conversations/${unknown}/events?page=2`,
    ]) {
      await expect(client.readResource({ uri }), uri).rejects.toMatchObject({
        code: -32602,
        data: { reason: 'invalid_resource_uri', uri },
      });
    }
    await expect(client.subscribeResource({ uri: `x://conversations/${unknown}` })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it('notifies subscribers when the log grows; unsubscribing and the end of the session stop the watch', async () => {
    const id = await finishedConversation('Watched.');
    const uri = `x://conversations/${id}`;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });
    const managed = await server.built.manager.require(id);
    await client.subscribeResource({ uri });
    // A watched conversation stays open (its log is the one appended to).
    expect(managed.isReleasable).toBe(false);
    await client.callTool({ name: 'send_message', arguments: { conversation_id: id, message: 'one more' } });
    await waitFor(async () => updated.includes(uri));
    expect((await readJson(uri)).id).toBe(id);
    await client.unsubscribeResource({ uri });
    expect(managed.isReleasable).toBe(true);

    // A second session subscribes and goes away without unsubscribing: the session's end stops its watch.
    const other = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`));
    const leaving = new Client({ name: 'x-mcp-leaving', version: '1.0.0' });
    await leaving.connect(other);
    await leaving.subscribeResource({ uri: `x://conversations/${id}/events?start=0` });
    expect(managed.isReleasable).toBe(false);
    await other.terminateSession();
    await leaving.close();
    await waitFor(async () => managed.isReleasable);
  });
});
