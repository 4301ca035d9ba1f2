import { describe, expect, it } from 'vitest';
import type { McpConversationHost } from './mcp-host.js';
import { watchListChanges } from './mcp-list-changes.js';

/** A host whose list changes when the test says, counting its listeners. */
function hostWithChanges() {
  const listeners = new Set<() => void>();
  const host = {
    acceptsCreateBody: true,
    create: async () => {
      throw new Error('not used');
    },
    find: async () => undefined,
    page: async () => ({ conversations: [] }),
    onListChanged(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } satisfies McpConversationHost;
  const change = () => {
    for (const listener of [...listeners]) listener();
  };
  return { host, listeners, change };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('watchListChanges', () => {
  it('notifies once per burst of changes from start to stop, and lets go of the host when stopped', async () => {
    const { host, listeners, change } = hostWithChanges();
    let notified = 0;
    const watch = watchListChanges(host, () => {
      notified += 1;
    });
    change();
    expect(listeners.size).toBe(0);
    watch.start();
    watch.start();
    expect(listeners.size).toBe(1);
    change();
    change();
    await nextTurn();
    expect(notified).toBe(1);
    change();
    await nextTurn();
    expect(notified).toBe(2);
    change();
    watch.stop();
    await nextTurn();
    expect(notified).toBe(2);
    expect(listeners.size).toBe(0);
    watch.start();
    expect(listeners.size).toBe(0);
  });

  it('does nothing for a host that cannot tell its changes', () => {
    const { onListChanged: _, ...host } = hostWithChanges().host;
    const watch = watchListChanges(host, () => {
      throw new Error('never');
    });
    watch.start();
    watch.stop();
  });
});
