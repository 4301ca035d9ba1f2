// Subscriptions in the order a client sends them, as `@modelcontextprotocol/sdk`'s Client sees them, connected in
// memory to the face's protocol server over a host whose conversation lookups can be held: the SDK handles a
// session's requests concurrently, so an unsubscribe sent right after its subscribe can be handled while that
// subscribe still looks its conversation up. The client's last word holds: nothing stays watched, nothing is notified.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMcpSdk } from '../../src/faces/mcp/load-mcp-sdk.js';
import type { McpConversation, McpConversationHost } from '../../src/faces/mcp/mcp-host.js';
import { createMcpProtocolServer } from '../../src/faces/mcp/mcp-protocol-server.js';
import { waitFor } from '../helpers.js';
import { pageOf } from '../support/paged-summaries.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A host of one conversation `c1` whose lookups wait while held, and whose watches are kept in `listeners`. */
function heldHost() {
  const listeners = new Set<() => void>();
  let release: () => void = () => undefined;
  let held = Promise.resolve();
  const lookups: string[] = [];
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
    state: async () => ({}),
    events: async () => ({ events: [], total: 0 }),
    watch(listener) {
      const watch = () => listener();
      listeners.add(watch);
      return () => listeners.delete(watch);
    },
  };
  const host: McpConversationHost = {
    acceptsCreateBody: false,
    create: async () => conversation,
    async find(id) {
      lookups.push(id);
      await held;
      return id === 'c1' ? conversation : undefined;
    },
    page: async (request) => pageOf([{ conversation_id: 'c1', status: 'idle' }], request),
  };
  return {
    host,
    listeners,
    lookups,
    hold() {
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    release: () => release(),
    grow: () => {
      for (const listener of listeners) listener();
    },
  };
}

async function connect(host: McpConversationHost): Promise<{ client: Client; updated: string[] }> {
  const server = createMcpProtocolServer(await loadMcpSdk(), host, { name: 'x-test', version: '0.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'x-mcp-subscribe-order-test', version: '1.0.0' });
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updated.push(notification.params.uri);
  });
  await client.connect(clientSide);
  clients.push(client);
  return { client, updated };
}

const STATE = 'x://conversations/c1';
const EVENTS = 'x://conversations/c1/events';

describe('an unsubscribe sent while its subscribe is still being handled', () => {
  it('wins: the resource is not watched, and a change to the log notifies only what is still subscribed', async () => {
    const held = heldHost();
    const { client, updated } = await connect(held.host);
    held.hold();
    const subscribing = client.subscribeResource({ uri: STATE });
    await waitFor(async () => held.lookups.length === 1);
    await expect(client.unsubscribeResource({ uri: STATE })).resolves.toEqual({});
    held.release();
    await expect(subscribing).resolves.toEqual({});
    expect(held.listeners.size).toBe(0);

    // A resource subscribed to after it is watched; a change notifies it alone.
    await client.subscribeResource({ uri: EVENTS });
    expect(held.listeners.size).toBe(1);
    held.grow();
    await waitFor(async () => updated.length > 0);
    await expect(client.ping()).resolves.toEqual({});
    expect(updated).toEqual([EVENTS]);
  });
});
