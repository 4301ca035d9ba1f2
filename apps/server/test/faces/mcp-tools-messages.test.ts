// Where the MCP face's tools put a user's message, judged by `@modelcontextprotocol/sdk`'s Client connected in memory
// to the face's protocol server over a host that records what it was asked: send_message records it without running
// the agent, run records it and then runs, start_conversation records it in the conversation it makes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMcpSdk } from '../../src/faces/mcp/load-mcp-sdk.js';
import type { McpConversation, McpConversationHost } from '../../src/faces/mcp/mcp-host.js';
import { createMcpProtocolServer } from '../../src/faces/mcp/mcp-protocol-server.js';
import { pageOf } from '../support/paged-summaries.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** What a conversation was asked, in order: `message:<text>` and `run`. */
function recordingConversation(id: string, asked: string[]): McpConversation {
  return {
    id,
    isRunning: false,
    async view() {
      return { conversation_id: id, status: 'idle', final_answer: '', pending_actions: [], event_count: asked.length };
    },
    async sendMessage(text) {
      asked.push(`message:${text}`);
    },
    async rejectPendingActions() {},
    async interrupt() {},
    async followRun() {
      asked.push('run');
    },
    async state() {
      return {};
    },
    async events() {
      return { events: [], total: 0 };
    },
    watch() {
      return () => undefined;
    },
  };
}

async function connect(): Promise<{ client: Client; asked: Map<string, string[]> }> {
  const asked = new Map<string, string[]>([['c0', []]]);
  const host: McpConversationHost = {
    acceptsCreateBody: false,
    async create() {
      const id = `c${asked.size}`;
      asked.set(id, []);
      return recordingConversation(id, asked.get(id) as string[]);
    },
    async find(id) {
      const log = asked.get(id);
      return log === undefined ? undefined : recordingConversation(id, log);
    },
    async page(request) {
      return pageOf(
        [...asked.keys()].map((id) => ({ conversation_id: id, status: 'idle' })),
        request,
      );
    },
  };
  const server = createMcpProtocolServer(await loadMcpSdk(), host, { name: 'x-test', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'x-mcp-messages-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return { client, asked };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false).toBe(false);
  return result;
}

describe("the MCP face's tools and a user's message", () => {
  it('send_message records the message and runs nothing', async () => {
    const { client, asked } = await connect();
    const result = await call(client, 'send_message', { conversation_id: 'c0', message: 'Hello there' });
    expect(asked.get('c0')).toEqual(['message:Hello there']);
    expect(result.structuredContent).toMatchObject({ conversation_id: 'c0', event_count: 1 });
  });

  it('run records its message first, then runs; without one it only runs', async () => {
    const { client, asked } = await connect();
    await call(client, 'run', { conversation_id: 'c0', message: 'Do it' });
    await call(client, 'run', { conversation_id: 'c0' });
    expect(asked.get('c0')).toEqual(['message:Do it', 'run', 'run']);
  });

  it('start_conversation records its first message in the new conversation, not in another', async () => {
    const { client, asked } = await connect();
    const result = await call(client, 'start_conversation', { message: 'First words' });
    expect(result.structuredContent).toMatchObject({ conversation_id: 'c1' });
    expect(Object.fromEntries(asked)).toEqual({ c0: [], c1: ['message:First words'] });
  });
});
