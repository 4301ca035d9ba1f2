// The MCP face's listings on replicas (`x serve --database-url`), as the SDK client pages them over streamable HTTP:
// pages come from the PostgreSQL conversations table, so a replica lists the conversations another one made without
// opening any, and a cursor goes on after its page when that page's last conversation was deleted meanwhile.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, removeDir, startTestServer, type TestServer, tempDir } from '../helpers.js';

let postgres: PostgresServer;
let database: TestDatabase;
const replicas: TestServer[] = [];
const clients: Client[] = [];
beforeAll(async () => {
  postgres = await startPostgresServer();
  database = await createTestDatabase(postgres.url);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  for (const replica of replicas) {
    await replica.stop();
    await removeDir(replica.dataDir);
  }
  await database?.drop();
  await postgres?.stop();
});

interface ConversationsPage {
  conversations: { conversation_id: string }[];
  next_cursor?: string;
}

async function conversationsPage(client: Client, args: Record<string, unknown>): Promise<ConversationsPage> {
  const result = (await client.callTool({ name: 'list_conversations', arguments: args })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return result.structuredContent as unknown as ConversationsPage;
}

const idsOf = (page: ConversationsPage) => page.conversations.map((entry) => entry.conversation_id);

describe('MCP listings on replicas', () => {
  it("lists another replica's conversations from the shared table, opening none, and pages past a deletion", async () => {
    for (let started = 0; started < 2; started += 1) {
      replicas.push(await startTestServer({ dataDir: await tempDir(), config: { databaseUrl: database.url } }));
    }
    const [a, b] = replicas as [TestServer, TestServer];
    const made: string[] = [];
    for (let count = 0; count < 4; count += 1) made.push(await createConversation(a));
    const client = new Client({ name: 'x-mcp-replicas', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${b.url}/api/mcp`)));
    clients.push(client);

    const first = await conversationsPage(client, { limit: 2 });
    // Newest first: the last two made.
    expect(idsOf(first)).toEqual([made[3], made[2]]);
    expect((await a.call('DELETE', `/api/conversations/${made[2]}`)).status).toBe(200);
    const second = await conversationsPage(client, { limit: 2, cursor: first.next_cursor });
    expect(idsOf(second)).toEqual([made[1], made[0]]);
    expect(second).not.toHaveProperty('next_cursor');
    const resources = await client.listResources();
    expect(resources.resources.map((resource) => resource.uri)).toContain(`x://conversations/${made[0]}`);

    for (const id of made) expect((await b.built.manager.get(id))?.isOpen ?? false).toBe(false);
  });
});
