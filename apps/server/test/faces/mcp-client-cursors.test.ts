// Pagination cursors as `@modelcontextprotocol/sdk`'s Client meets them, connected in memory to the face's protocol
// server over a host with more conversations than one resources/list page holds: every list method refuses a cursor
// it never gave (made up, empty, not a string, another list's) the same way, -32602 with `data.reason:
// invalid_cursor`, and the session goes on; the cursors it gave lead through the whole list, also in another session.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMcpSdk } from '../../src/faces/mcp/load-mcp-sdk.js';
import type { McpConversationHost } from '../../src/faces/mcp/mcp-host.js';
import { createMcpProtocolServer } from '../../src/faces/mcp/mcp-protocol-server.js';
import { pageOf } from '../support/paged-summaries.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** Conversations `c0` to `c{count - 1}`, listed in that order; nothing else is asked of them here. */
function listingHost(count: number): McpConversationHost {
  const ids = Array.from({ length: count }, (_, index) => `c${index}`);
  return {
    acceptsCreateBody: false,
    async create() {
      throw new Error('this host makes no conversations');
    },
    async find() {
      return undefined;
    },
    async page(request) {
      return pageOf(
        ids.map((id) => ({ conversation_id: id, status: 'finished' })),
        request,
      );
    },
  };
}

async function connect(host: McpConversationHost): Promise<Client> {
  const server = createMcpProtocolServer(await loadMcpSdk(), host, { name: 'x-test', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'x-mcp-cursors-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

const LISTS = {
  'tools/list': ListToolsResultSchema,
  'resources/list': ListResourcesResultSchema,
  'resources/templates/list': ListResourceTemplatesResultSchema,
} as const;
type ListMethod = keyof typeof LISTS;
const METHODS = Object.keys(LISTS) as ListMethod[];

/** A list request with any `cursor` at all: the SDK client sends what it is given. */
const list = (client: Client, method: ListMethod, cursor: unknown) =>
  client.request({ method, params: { cursor } } as never, LISTS[method]);

async function conversationsPage(client: Client, args: Record<string, unknown>) {
  const result = (await client.callTool({ name: 'list_conversations', arguments: args })) as CallToolResult;
  return result.structuredContent as { conversations: { conversation_id: string }[]; next_cursor?: string };
}

/** 51 conversations: 102 resources, one more page than the first 100 hold. */
const CONVERSATIONS = 51;

describe('a cursor this server never gave, on every list method', () => {
  it('refuses a made-up, empty, negative, padded or too long one as invalid_cursor, naming it', async () => {
    const client = await connect(listingHost(CONVERSATIONS));
    const forged = ['nope', '', '-1', '1', '100', '007', '1e2', 'resources:', 'resources:-100', 'resources:0100'];
    for (const method of METHODS) {
      for (const cursor of [...forged, 'resources:1000000000', 'resources:100 ']) {
        await expect(list(client, method, cursor), `${method} ${JSON.stringify(cursor)}`).rejects.toMatchObject({
          code: -32602,
          message: expect.stringContaining(`${method}: ${JSON.stringify(cursor)} is not a cursor this server gave`),
          data: { reason: 'invalid_cursor', cursor },
        });
      }
    }
    await expect(client.ping()).resolves.toEqual({});
  });

  it('refuses a cursor that is no string as invalid_cursor too, not as some other invalid params', async () => {
    const client = await connect(listingHost(CONVERSATIONS));
    for (const method of METHODS) {
      for (const cursor of [100, null, { offset: 100 }, ['resources:100'], true]) {
        await expect(list(client, method, cursor), `${method} ${JSON.stringify(cursor)}`).rejects.toMatchObject({
          code: -32602,
          data: { reason: 'invalid_cursor', cursor },
        });
      }
    }
  });

  it("refuses another list's cursor: a list_conversations next_cursor is no resources/list cursor, nor the reverse", async () => {
    const client = await connect(listingHost(CONVERSATIONS));
    const conversationsCursor = (await conversationsPage(client, { limit: 1 })).next_cursor;
    expect(conversationsCursor).toEqual(expect.any(String));
    for (const method of METHODS) {
      await expect(list(client, method, conversationsCursor), method).rejects.toMatchObject({
        code: -32602,
        data: { reason: 'invalid_cursor', cursor: conversationsCursor },
      });
    }
    const resourcesCursor = (await client.listResources()).nextCursor;
    expect(resourcesCursor).toEqual(expect.any(String));
    for (const method of ['tools/list', 'resources/templates/list'] as const) {
      await expect(list(client, method, resourcesCursor), method).rejects.toMatchObject({
        data: { reason: 'invalid_cursor', cursor: resourcesCursor },
      });
    }
    // The tool refuses it as it refuses every argument it cannot take, naming the argument.
    await expect(
      client.callTool({ name: 'list_conversations', arguments: { cursor: resourcesCursor } }),
    ).resolves.toMatchObject({
      isError: true,
      structuredContent: { reason: 'invalid_arguments', path: 'arguments.cursor' },
    });
  });
});

describe('the cursors it gave', () => {
  it('lead through every resource once, page after page, in this session and in another one of the same list', async () => {
    // 151 conversations: 302 resources, three full pages and two left over.
    const host = listingHost(151);
    const client = await connect(host);
    const pages = [await client.listResources()];
    for (let cursor = pages[0]?.nextCursor; cursor !== undefined && pages.length < 10; ) {
      const next = await client.listResources({ cursor });
      pages.push(next);
      cursor = next.nextCursor;
    }
    expect(pages.map((page) => page.resources.length)).toEqual([100, 100, 100, 2]);
    const uris = pages.flatMap((page) => page.resources.map((resource) => resource.uri));
    expect(new Set(uris).size).toBe(302);
    expect(uris.at(-1)).toBe('x://conversations/c150/events?start=0&limit=100');
    // The list is the host's, not the session's: another session goes on from the same cursor to the same page.
    const other = await connect(host);
    expect(await other.listResources({ cursor: pages[1]?.nextCursor })).toEqual(pages[2]);
  });

  it('lead list_conversations on from where its previous page ended, whatever the page size', async () => {
    const client = await connect(listingHost(5));
    const first = await conversationsPage(client, { limit: 3 });
    const rest = await conversationsPage(client, { limit: 1, cursor: first.next_cursor });
    expect(rest.conversations.map((entry) => entry.conversation_id)).toEqual(['c3']);
    const last = await conversationsPage(client, { limit: 5, cursor: rest.next_cursor });
    expect(last.conversations.map((entry) => entry.conversation_id)).toEqual(['c4']);
    expect(last).not.toHaveProperty('next_cursor');
  });
});
