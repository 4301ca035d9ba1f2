// A subscribed conversation deleted, judged by the official SDK's Client over streamable HTTP against a real server:
// the face sends `notifications/resources/updated` for each subscribed resource of it, so the client reads it again
// and learns it is gone, and drops the subscription (the session can subscribe again to as many others).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import { createRequest, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';

let server: TestServer;
let client: Client;

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: { mcpConversation: createRequest(llm) as ServerConfigInput['mcpConversation'] },
  });
  client = new Client({ name: 'x-mcp-resources-deleted-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await removeDir(server.dataDir);
});

describe('MCP resource subscriptions on a deleted conversation', () => {
  it('notifies each subscribed resource of it once deleted; reading it again says it is gone', async () => {
    const started = (await client.callTool({ name: 'start_conversation', arguments: {} })) as CallToolResult;
    const id = (started.structuredContent as { conversation_id: string }).conversation_id;
    const state = `x://conversations/${id}`;
    const events = `x://conversations/${id}/events?start=0`;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });
    await client.subscribeResource({ uri: state });
    await client.subscribeResource({ uri: events });

    expect((await server.call('DELETE', `/api/conversations/${id}`)).status).toBe(200);
    await waitFor(async () => updated.includes(state) && updated.includes(events));
    await expect(client.readResource({ uri: state })).rejects.toThrow();
  });
});
