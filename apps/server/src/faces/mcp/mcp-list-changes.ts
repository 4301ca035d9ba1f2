import type { McpConversationHost } from './mcp-host.js';

/** A watch on the host's conversation list for one MCP session: started once, stopped with the session. */
export interface ListChangesWatch {
  start(): void;
  stop(): void;
}

/**
 * Calls `notify` (sends `notifications/resources/list_changed`) when the host's conversation list changes. Changes
 * close together give one notification: the client lists the resources again anyway. A host that cannot tell its
 * changes gives a watch that does nothing.
 */
export function watchListChanges(host: McpConversationHost, notify: () => void): ListChangesWatch {
  let unwatch: (() => void) | undefined;
  let pending = false;
  let stopped = false;
  return {
    start() {
      if (stopped || unwatch !== undefined || host.onListChanged === undefined) return;
      unwatch = host.onListChanged(() => {
        if (pending) return;
        pending = true;
        setImmediate(() => {
          pending = false;
          if (!stopped) notify();
        });
      });
    },
    stop() {
      stopped = true;
      unwatch?.();
      unwatch = undefined;
    },
  };
}
