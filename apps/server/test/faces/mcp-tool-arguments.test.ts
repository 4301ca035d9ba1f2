// Tool arguments at the edge of what the tools take, as `@modelcontextprotocol/sdk`'s Client sees the answers,
// connected in memory to the face's protocol server over a host that records what reached it: an empty conversation
// id, a blank message and a page of no conversations are refused as arguments (tool execution errors, isError with structuredContent.reason invalid_arguments, naming the
// argument) before the host is asked anything; a page of 0 would hand back the same cursor for ever.
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

/** Conversations `c0`, `c1`, `c2`; every lookup, listing and recorded message is kept in `reached`. */
function recordingHost(): McpConversationHost & { reached: string[] } {
  const reached: string[] = [];
  const conversation = (id: string): McpConversation => ({
    id,
    isRunning: false,
    view: async () => ({ conversation_id: id, status: 'idle', final_answer: '', pending_actions: [], event_count: 0 }),
    sendMessage: async (text) => {
      reached.push(`message ${id}: ${text}`);
    },
    rejectPendingActions: async () => undefined,
    interrupt: async () => undefined,
    followRun: async () => undefined,
    state: async () => ({}),
    events: async () => ({ events: [], total: 0 }),
    watch: () => () => undefined,
  });
  const ids = ['c0', 'c1', 'c2'];
  return {
    reached,
    acceptsCreateBody: false,
    create: async () => conversation('new'),
    async find(id) {
      reached.push(`find ${id}`);
      return ids.includes(id) ? conversation(id) : undefined;
    },
    async page(request) {
      reached.push('list');
      return pageOf(
        ids.map((id) => ({ conversation_id: id, status: 'idle' })),
        request,
      );
    },
  };
}

async function connect(host: McpConversationHost): Promise<Client> {
  const server = createMcpProtocolServer(await loadMcpSdk(), host, { name: 'x-test', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'x-mcp-tool-arguments-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

/** A tool execution error (MCP 2025-11-25, SEP-1303): the model reads why and can call again; the reason is structured. */
const refusedAt = (path: string) => ({ isError: true, structuredContent: { reason: 'invalid_arguments', path } });

describe('tool arguments the tools do not take', () => {
  it('refuses an empty conversation id as an argument, not as a conversation it did not find', async () => {
    const host = recordingHost();
    const client = await connect(host);
    for (const name of ['get_conversation', 'run', 'interrupt', 'send_message']) {
      const args = name === 'send_message' ? { conversation_id: '', message: 'hi' } : { conversation_id: '' };
      await expect(client.callTool({ name, arguments: args }), name).resolves.toMatchObject(
        refusedAt('arguments.conversation_id'),
      );
    }
    expect(host.reached).toEqual([]);
  });

  it('answers arguments of the wrong type with a tool error the model reads, naming the argument and the type', async () => {
    const host = recordingHost();
    const client = await connect(host);
    const result = await client.callTool({ name: 'get_conversation', arguments: { conversation_id: 5 } });
    expect(result).toMatchObject(refusedAt('arguments.conversation_id'));
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^get_conversation: arguments\.conversation_id: .*expected string/) },
    ]);
    expect(host.reached).toEqual([]);
  });

  it('refuses a message that is empty or only white space, recording nothing', async () => {
    const host = recordingHost();
    const client = await connect(host);
    for (const message of ['', '   ', '\n\t ']) {
      await expect(
        client.callTool({ name: 'send_message', arguments: { conversation_id: 'c1', message } }),
        JSON.stringify(message),
      ).resolves.toMatchObject(refusedAt('arguments.message'));
      await expect(
        client.callTool({ name: 'run', arguments: { conversation_id: 'c1', message } }),
      ).resolves.toMatchObject(refusedAt('arguments.message'));
    }
    expect(host.reached).toEqual([]);
    await client.callTool({ name: 'send_message', arguments: { conversation_id: 'c1', message: '  kept  ' } });
    expect(host.reached).toEqual(['find c1', 'message c1: kept']);
  });

  it('refuses a list_conversations page of no conversations, or of more than 200', async () => {
    const host = recordingHost();
    const client = await connect(host);
    for (const limit of [0, -1, 201, 1.5]) {
      await expect(
        client.callTool({ name: 'list_conversations', arguments: { limit } }),
        String(limit),
      ).resolves.toMatchObject(refusedAt('arguments.limit'));
    }
    expect(host.reached).toEqual([]);
  });
});
