// What an MCP session holds of its host, and lets go when it ends, judged by `@modelcontextprotocol/sdk`'s Client
// connected in memory to the face's protocol server: the watch on the conversation list (from `initialized` on) and
// the watches of its resource subscriptions. A server lives through many sessions; one that kept the watches of ended
// sessions would hold every ended session's protocol server, and grow with each client that came and went.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { loadMcpSdk } from '../../src/faces/mcp/load-mcp-sdk.js';
import type { McpConversation, McpConversationHost } from '../../src/faces/mcp/mcp-host.js';
import { createMcpProtocolServer } from '../../src/faces/mcp/mcp-protocol-server.js';
import { waitFor } from '../helpers.js';
import { pageOf } from '../support/paged-summaries.js';

/** A host of one conversation `c1` that counts the watches held on it. */
function countingHost(): McpConversationHost & { listWatches: () => number; logWatches: () => number } {
  const listListeners = new Set<() => void>();
  const logListeners = new Set<() => void>();
  const conversation: McpConversation = {
    id: 'c1',
    isRunning: false,
    async view() {
      return { conversation_id: 'c1', status: 'finished', final_answer: '', pending_actions: [], event_count: 0 };
    },
    async sendMessage() {},
    async rejectPendingActions() {},
    async interrupt() {},
    async followRun() {},
    async state() {
      return {};
    },
    async events() {
      return { events: [], total: 0 };
    },
    watch(listener) {
      logListeners.add(listener);
      return () => logListeners.delete(listener);
    },
  };
  return {
    acceptsCreateBody: true,
    async create() {
      return conversation;
    },
    async find(id) {
      return id === 'c1' ? conversation : undefined;
    },
    async page(request) {
      return pageOf([{ conversation_id: 'c1', status: 'finished' }], request);
    },
    onListChanged(listener) {
      listListeners.add(listener);
      return () => listListeners.delete(listener);
    },
    listWatches: () => listListeners.size,
    logWatches: () => logListeners.size,
  };
}

async function connect(host: McpConversationHost): Promise<Client> {
  const server = createMcpProtocolServer(await loadMcpSdk(), host, { name: 'x-test', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'x-mcp-release-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('an MCP session ending', () => {
  it('stops watching the conversation list and the resources it subscribed to', async () => {
    const host = countingHost();
    const first = await connect(host);
    const second = await connect(host);
    await first.subscribeResource({ uri: 'x://conversations/c1' });
    await first.subscribeResource({ uri: 'x://conversations/c1/events?start=0&limit=100' });
    // `initialized` is a notification: the list is watched once the server has handled it.
    await waitFor(async () => host.listWatches() === 2);
    expect(host.logWatches()).toBe(2);

    await first.close();
    await waitFor(async () => host.listWatches() === 1);
    expect(host.logWatches()).toBe(0);
    await second.close();
    await waitFor(async () => host.listWatches() === 0);
  });
});
