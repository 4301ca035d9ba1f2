// Resource URIs a hostile or careless client sends, as `@modelcontextprotocol/sdk`'s Client sees the answers, connected
// in memory to the face's protocol server over a host of one conversation: a URI whose percent-encoding decodes to
// nothing (a stray `%`, a cut UTF-8 sequence) is a URI of no form this server gives (-32602 invalid_resource_uri),
// never an internal error, whether it is read or subscribed to; and the session goes on.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMcpSdk } from '../../src/faces/mcp/load-mcp-sdk.js';
import type { McpConversation, McpConversationHost } from '../../src/faces/mcp/mcp-host.js';
import { createMcpProtocolServer } from '../../src/faces/mcp/mcp-protocol-server.js';
import { pageOf } from '../support/paged-summaries.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** One conversation, `c1`, with an empty log; the ids `find` was asked for are kept in `asked`. */
function oneConversationHost(): McpConversationHost & { asked: string[] } {
  const conversation: McpConversation = {
    id: 'c1',
    isRunning: false,
    view: async () => ({
      conversation_id: 'c1',
      status: 'idle',
      final_answer: '',
      pending_actions: [],
      event_count: 0,
    }),
    sendMessage: async () => undefined,
    rejectPendingActions: async () => undefined,
    interrupt: async () => undefined,
    followRun: async () => undefined,
    state: async () => ({ id: 'c1' }),
    events: async () => ({ events: [], total: 0 }),
    watch: () => () => undefined,
  };
  const asked: string[] = [];
  return {
    asked,
    acceptsCreateBody: false,
    create: async () => conversation,
    async find(id) {
      asked.push(id);
      return id === 'c1' ? conversation : undefined;
    },
    page: async (request) => pageOf([{ conversation_id: 'c1', status: 'idle' }], request),
  };
}

async function connect(host: McpConversationHost): Promise<Client> {
  const server = createMcpProtocolServer(await loadMcpSdk(), host, { name: 'x-test', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'x-mcp-resource-uris-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

describe('a resource URI whose conversation id does not decode', () => {
  const undecodable = [
    'x://conversations/%ZZ',
    'x://conversations/%',
    'x://conversations/c1%',
    'x://conversations/%E0%A4%A/events',
    'x://conversations/%C0%AF/events?start=0',
    'x://conversations/%ED%A0%80',
  ];

  it('is refused as invalid on read and on subscribe, naming the URI, and asks the host for nothing', async () => {
    const host = oneConversationHost();
    const client = await connect(host);
    for (const uri of undecodable) {
      for (const request of [() => client.readResource({ uri }), () => client.subscribeResource({ uri })]) {
        await expect(request(), uri).rejects.toMatchObject({
          code: -32602,
          message: expect.stringContaining(`Resource '${uri}': the conversation id is not valid percent-encoding`),
          data: { reason: 'invalid_resource_uri', uri },
        });
      }
    }
    expect(host.asked).toEqual([]);
    // The session is whole, and an id that decodes still reads.
    await expect(client.ping()).resolves.toEqual({});
    const read = await client.readResource({ uri: 'x://conversations/%63%31' });
    expect(read.contents).toEqual([
      { uri: 'x://conversations/%63%31', mimeType: 'application/json', text: JSON.stringify({ id: 'c1' }) },
    ]);
  });
});
