// What an MCP client sees of the face's tools beyond a single run, judged by `@modelcontextprotocol/sdk`'s Client
// connected in memory to the face's protocol server over a recording host: the annotations a client reads to decide
// what it may call without asking, list_conversations' pages and cursors, where a refused argument is, and the
// reason a rejection carries.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMcpSdk } from '../../src/faces/mcp/load-mcp-sdk.js';
import type { McpConversation, McpConversationHost, McpPendingAction } from '../../src/faces/mcp/mcp-host.js';
import { createMcpProtocolServer } from '../../src/faces/mcp/mcp-protocol-server.js';
import { pageOf } from '../support/paged-summaries.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A conversation that records what the tools asked of it, waiting on one action until answered. */
interface RecordingConversation extends McpConversation {
  rejections: string[];
  pending: McpPendingAction[];
}

function recordingConversation(id: string): RecordingConversation {
  const rejections: string[] = [];
  const pending: McpPendingAction[] = [
    { id: `a-${id}`, tool_name: 'terminal', tool_call_id: `call-${id}`, arguments: { command: 'rm -rf build' } },
  ];
  return {
    id,
    isRunning: false,
    rejections,
    pending,
    async view() {
      return {
        conversation_id: id,
        status: pending.length > 0 ? 'waiting_for_confirmation' : 'finished',
        final_answer: '',
        pending_actions: [...pending],
        event_count: 0,
      };
    },
    async sendMessage() {},
    async rejectPendingActions(reason) {
      rejections.push(reason);
      pending.splice(0);
    },
    async interrupt() {},
    async followRun() {
      pending.splice(0);
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

/** A host of `count` conversations, `c0` first (newest first, as a host lists them). */
function recordingHost(count: number): McpConversationHost & { conversations: Map<string, RecordingConversation> } {
  const conversations = new Map<string, RecordingConversation>();
  for (let index = 0; index < count; index += 1) conversations.set(`c${index}`, recordingConversation(`c${index}`));
  return {
    conversations,
    acceptsCreateBody: true,
    async create() {
      throw new Error('this host makes no conversations');
    },
    async find(id) {
      return conversations.get(id);
    },
    async page(request) {
      return pageOf(
        [...conversations.keys()].map((id) => ({ conversation_id: id, status: 'finished' })),
        request,
      );
    },
  };
}

async function connect(host: McpConversationHost): Promise<Client> {
  const server = createMcpProtocolServer(await loadMcpSdk(), host, { name: 'x-test', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'x-mcp-tools-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

interface Page {
  conversations: { conversation_id: string }[];
  next_cursor?: string;
}

async function page(client: Client, args: Record<string, unknown>): Promise<Page> {
  const result = (await client.callTool({ name: 'list_conversations', arguments: args })) as CallToolResult;
  return result.structuredContent as unknown as Page;
}

const idsOf = (listed: Page): string[] => listed.conversations.map((entry) => entry.conversation_id);

describe('MCP tool annotations, as the SDK client lists them', () => {
  it('marks only the readers read-only, the tools that run the agent destructive and open-world, interrupt idempotent', async () => {
    const client = await connect(recordingHost(0));
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    // Reading never changes a conversation, and reaches nothing outside the server.
    for (const name of ['get_conversation', 'list_conversations']) {
      expect(hints[name]).toEqual({ readOnlyHint: true, openWorldHint: false });
    }
    // Running the agent runs its tools (a shell) and calls its model: destructive, open-world, never idempotent.
    for (const name of ['run', 'confirm_actions']) {
      expect(hints[name]).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
    }
    // Starting a conversation may make one from any create body (its model, its workspace); it runs nothing yet.
    expect(hints.start_conversation).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    // A message is recorded once per call; it stays inside the conversation.
    expect(hints.send_message).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    // Interrupting twice leaves the conversation as once: paused.
    expect(hints.interrupt).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});

describe('input schemas, as the SDK client lists them', () => {
  it("offers start_conversation's create body where the host takes one, and leaves the other tools' schemas their own", async () => {
    const client = await connect(recordingHost(0));
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.inputSchema;
    expect(Object.keys(schemaOf('start_conversation')?.properties ?? {})).toEqual(['message', 'conversation']);
    expect(schemaOf('run')?.required).toEqual(['conversation_id']);
  });
});

describe('list_conversations pages, through the SDK client', () => {
  it('walks every conversation once, in the host order, following next_cursor until there is none', async () => {
    const client = await connect(recordingHost(5));
    const seen: string[] = [];
    const cursors: (string | undefined)[] = [];
    let listed = await page(client, { limit: 2 });
    seen.push(...idsOf(listed));
    while (listed.next_cursor !== undefined) {
      cursors.push(listed.next_cursor);
      listed = await page(client, { limit: 2, cursor: listed.next_cursor });
      seen.push(...idsOf(listed));
    }
    expect(seen).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(cursors).toHaveLength(2);
    expect(listed).not.toHaveProperty('next_cursor');
  });

  it('gives a next cursor when one conversation is left over, and none when a page ends with the list', async () => {
    const client = await connect(recordingHost(5));
    const short = await page(client, { limit: 4 });
    expect(idsOf(short)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(idsOf(await page(client, { limit: 4, cursor: short.next_cursor }))).toEqual(['c4']);
    const whole = await page(client, { limit: 5 });
    expect(idsOf(whole)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(whole).not.toHaveProperty('next_cursor');
  });

  it('refuses an empty cursor, which it never gives', async () => {
    const client = await connect(recordingHost(3));
    await expect(client.callTool({ name: 'list_conversations', arguments: { cursor: '' } })).resolves.toMatchObject({
      isError: true,
      structuredContent: { reason: 'invalid_arguments', path: 'arguments.cursor' },
    });
  });
});

describe('argument refusals, through the SDK client', () => {
  it('names the arguments themselves as the path of an argument no tool takes', async () => {
    const client = await connect(recordingHost(1));
    await expect(
      client.callTool({ name: 'get_conversation', arguments: { conversation_id: 'c0', verbose: true } }),
    ).resolves.toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('get_conversation: arguments: ') }],
      structuredContent: { reason: 'invalid_arguments', tool: 'get_conversation', path: 'arguments' },
    });
  });
});

describe('confirm_actions with approve false, through the SDK client', () => {
  it("tells the agent the client's reason, or a default one when it gave none", async () => {
    const host = recordingHost(2);
    const client = await connect(host);
    await client.callTool({
      name: 'confirm_actions',
      arguments: { conversation_id: 'c0', approve: false, reason: 'not on Fridays' },
    });
    await client.callTool({ name: 'confirm_actions', arguments: { conversation_id: 'c1', approve: false } });
    expect(host.conversations.get('c0')?.rejections).toEqual(['not on Fridays']);
    expect(host.conversations.get('c1')?.rejections).toEqual(['The user rejected the action']);
  });
});
