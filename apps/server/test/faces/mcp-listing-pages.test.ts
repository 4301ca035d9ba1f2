// The MCP face's listings over the server's conversations, as `@modelcontextprotocol/sdk`'s Client pages them
// (connected in memory to the protocol server over the manager host and its index): a page of `list_conversations`
// or `resources/list` opens no conversation (status and title come from the index's meta.json records, so idle ones
// stay released); its cursor names where the page ended, so conversations deleted or created between pages make the
// next page skip or repeat none of the others; and cursors of no such place (the offsets cursors used to be
// included) are refused as before.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationManager } from '../../src/conversations/conversation-manager.js';
import { loadMcpSdk } from '../../src/faces/mcp/load-mcp-sdk.js';
import { createManagerHost } from '../../src/faces/mcp/manager-host.js';
import { createMcpProtocolServer } from '../../src/faces/mcp/mcp-protocol-server.js';
import {
  type InProcessManager,
  managersStoppedAfterEach,
  offlineRequest,
  recordingLogger,
} from '../support/in-process-manager.js';

const start = managersStoppedAfterEach();
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** The idle release of `startInProcessManager` (its default `idleReleaseMs`). */
const IDLE_MS = 60_000;

async function connect(server: InProcessManager): Promise<Client> {
  const host = createManagerHost(server.manager, { listing: server.listing, logger: recordingLogger().logger });
  const protocol = createMcpProtocolServer(await loadMcpSdk(), host, { name: 'x-test', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await protocol.connect(serverSide);
  const client = new Client({ name: 'x-mcp-listing-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

/** Makes `count` conversations, one after another (so each is newer than the one before). */
async function create(manager: ConversationManager, count: number, fields: Record<string, unknown> = {}) {
  const ids: string[] = [];
  for (let made = 0; made < count; made += 1) {
    ids.push((await manager.create(offlineRequest(fields))).conversation.id);
  }
  return ids;
}

/** Newest first by creation, ties by id: the order the face lists in. */
async function newestFirst(manager: ConversationManager, ids: string[]): Promise<string[]> {
  const placed = await Promise.all(
    ids.map(async (id) => ({ id, at: (await manager.get(id))?.meta.created_at ?? '', hex: id.replace(/-/g, '') })),
  );
  placed.sort((a, b) => b.at.localeCompare(a.at) || b.hex.localeCompare(a.hex));
  return placed.map((entry) => entry.id);
}

/** Lets every conversation go, as idle release does after `idleReleaseMs` unused. */
async function releaseAll(server: InProcessManager, ids: string[]): Promise<void> {
  server.advance(IDLE_MS + 1);
  await server.manager.releaseIdle();
  expect(await openOnes(server.manager, ids)).toEqual([]);
}

async function openOnes(manager: ConversationManager, ids: string[]): Promise<string[]> {
  const open: string[] = [];
  for (const id of ids) if ((await manager.get(id))?.isOpen === true) open.push(id);
  return open;
}

interface ConversationsPage {
  conversations: { conversation_id: string; status: string; title?: string }[];
  next_cursor?: string;
}

async function conversationsPage(client: Client, args: Record<string, unknown>): Promise<ConversationsPage> {
  const result = (await client.callTool({ name: 'list_conversations', arguments: args })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return result.structuredContent as unknown as ConversationsPage;
}

/** The conversation ids a resources/list page lists (each twice: its state and its events). */
const resourceIds = (page: { resources: { uri: string }[] }): string[] =>
  page.resources.flatMap((resource) => {
    const id = /^x:\/\/conversations\/([^/?]+)$/.exec(resource.uri)?.[1];
    return id === undefined ? [] : [decodeURIComponent(id)];
  });

describe('a page of the MCP listings', () => {
  it('opens none of the conversations listed, and reads their status and title without them', async () => {
    const server = await start();
    const ids = [...(await create(server.manager, 5)), ...(await create(server.manager, 1, { title: 'Titled' }))];
    await releaseAll(server, ids);
    const client = await connect(server);

    const first = await conversationsPage(client, { limit: 2 });
    expect(first.conversations.map((entry) => entry.conversation_id)).toEqual(
      (await newestFirst(server.manager, ids)).slice(0, 2),
    );
    await conversationsPage(client, { limit: 2, cursor: first.next_cursor });
    const whole = await conversationsPage(client, { limit: 10 });
    expect(whole.conversations).toContainEqual({ conversation_id: ids.at(-1), status: 'idle', title: 'Titled' });
    expect(whole.conversations).toContainEqual({ conversation_id: ids[0], status: 'idle' });
    const resources = await client.listResources();
    expect(new Set(resourceIds(resources))).toEqual(new Set(ids));

    expect(await openOnes(server.manager, ids)).toEqual([]);
  });
});

describe('the cursor of a page', () => {
  it('goes on after its page when conversations were deleted and created between pages: none skipped, none twice', async () => {
    const server = await start();
    const ids = await newestFirst(server.manager, await create(server.manager, 6));
    const client = await connect(server);
    const first = await conversationsPage(client, { limit: 2 });
    expect(first.conversations.map((entry) => entry.conversation_id)).toEqual(ids.slice(0, 2));
    // The page's last conversation (where its cursor points) and one before it go; a newer one comes.
    await server.manager.delete(ids[1] as string);
    await server.manager.delete(ids[0] as string);
    await create(server.manager, 1);
    const second = await conversationsPage(client, { limit: 2, cursor: first.next_cursor });
    expect(second.conversations.map((entry) => entry.conversation_id)).toEqual(ids.slice(2, 4));
    // One the next page would list goes too: the rest come without it.
    await server.manager.delete(ids[4] as string);
    const third = await conversationsPage(client, { limit: 2, cursor: second.next_cursor });
    expect(third.conversations.map((entry) => entry.conversation_id)).toEqual([ids[5]]);
    expect(third).not.toHaveProperty('next_cursor');
  });

  it('leads resources/list on by conversations, not by an offset a deletion would shift', async () => {
    const server = await start();
    // 52 conversations: 104 resources, a full page of 50 conversations and two more.
    const ids = await newestFirst(server.manager, await create(server.manager, 52));
    const client = await connect(server);
    const first = await client.listResources();
    expect(resourceIds(first)).toEqual(ids.slice(0, 50));
    expect(first.nextCursor).toEqual(expect.any(String));
    await server.manager.delete(ids[0] as string);
    await server.manager.delete(ids[49] as string);
    const second = await client.listResources({ cursor: first.nextCursor });
    expect(resourceIds(second)).toEqual(ids.slice(50));
    expect(second.resources).toHaveLength(4);
    expect(second).not.toHaveProperty('nextCursor');
  });

  it('is refused when it names no place this server gives, the offsets cursors used to name included', async () => {
    const server = await start();
    await create(server.manager, 3);
    const client = await connect(server);
    const given = (await conversationsPage(client, { limit: 1 })).next_cursor as string;
    const place = given.slice('conversations:'.length);
    const forgedPlaces = [
      '1',
      '50',
      `${place} `,
      place.replace(/~.*/, '~'),
      `2026-13-40T00:00:00.000+00:00~${'a'.repeat(32)}`,
      `yesterday~${'a'.repeat(32)}`,
      `~${'a'.repeat(65)}`,
    ];
    for (const cursor of [...forgedPlaces.map((forged) => `conversations:${forged}`), `resources:${place}`]) {
      await expect(
        client.callTool({ name: 'list_conversations', arguments: { cursor } }),
        cursor,
      ).resolves.toMatchObject({
        isError: true,
        structuredContent: { reason: 'invalid_arguments', tool: 'list_conversations', path: 'arguments.cursor' },
      });
    }
    for (const cursor of [...forgedPlaces.map((forged) => `resources:${forged}`), 'resources:100', given]) {
      await expect(client.listResources({ cursor }), cursor).rejects.toMatchObject({
        code: -32602,
        data: { reason: 'invalid_cursor', cursor },
      });
    }
  });
});
