// `notifications/resources/list_changed` from the MCP face, judged by `@modelcontextprotocol/sdk`'s Client (its
// notification handler) over streamable HTTP against a real server: the face declares `resources.listChanged` (and
// no `tools.listChanged`: its tools are fixed), and every session hears it when a conversation is created (by an MCP
// tool or the REST API) or deleted; a session that ended hears nothing more.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import { createRequest, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';

let server: TestServer;

beforeAll(async () => {
  const llm = await startScriptedLLMServer();
  server = await startTestServer({
    llm,
    config: { mcpConversation: createRequest(llm) as ServerConfigInput['mcpConversation'] },
  });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

interface Listener {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** How many `list_changed` notifications it received. */
  heard: () => number;
}

/**
 * A connected client counting `list_changed` notifications, returned once its server-to-client stream (the GET the
 * SDK client opens after `initialized`, which carries notifications not tied to a request) has been answered.
 */
async function listener(): Promise<Listener> {
  let streamOpened!: () => void;
  const opened = new Promise<void>((resolve) => {
    streamOpened = resolve;
  });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? 'GET') === 'GET' && response.ok) streamOpened();
      return response;
    },
  });
  const client = new Client({ name: 'x-mcp-list-changed-test', version: '1.0.0' });
  let count = 0;
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    count += 1;
  });
  await client.connect(transport);
  await opened;
  return { client, transport, heard: () => count };
}

const resourceUris = async (client: Client) => (await client.listResources()).resources.map(({ uri }) => uri);

describe('MCP resources/list_changed', () => {
  it('declares it, and tells every session when a conversation is created or deleted', async () => {
    const first = await listener();
    const second = await listener();
    try {
      expect(first.client.getServerCapabilities()).toMatchObject({
        tools: { listChanged: false },
        resources: { subscribe: true, listChanged: true },
      });

      // Created through an MCP tool: both sessions hear it, and the list has it.
      const started = (await first.client.callTool({ name: 'start_conversation', arguments: {} })) as CallToolResult;
      const id = (started.structuredContent as { conversation_id: string }).conversation_id;
      await waitFor(async () => first.heard() >= 1 && second.heard() >= 1);
      expect(await resourceUris(second.client)).toContain(`x://conversations/${id}`);

      // Created through the REST API.
      const created = await server.call('POST', '/api/conversations', createRequest(server.llm));
      expect(created.status).toBe(201);
      const other = (created.json as { id: string }).id;
      await waitFor(async () => first.heard() >= 2 && second.heard() >= 2);
      expect(await resourceUris(first.client)).toContain(`x://conversations/${other}`);

      // A session that ended hears nothing more; the one left hears the delete.
      await second.transport.terminateSession();
      await second.client.close();
      const heardBefore = second.heard();
      expect((await server.call('DELETE', `/api/conversations/${id}`)).status).toBe(200);
      await waitFor(async () => first.heard() >= 3);
      expect(await resourceUris(first.client)).not.toContain(`x://conversations/${id}`);
      expect(second.heard()).toBe(heardBefore);
    } finally {
      await first.client.close();
      await second.client.close();
    }
  });
});
