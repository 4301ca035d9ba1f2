import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { ConversationSnapshot } from './conversation-snapshot.js';
import { ConversationStore, type ConversationStoreOptions } from './conversation-store.js';

export type UseConversationOptions = ConversationStoreOptions;

/** A conversation's snapshot and the actions on it. */
export interface UseConversationResult extends ConversationSnapshot {
  /** Adds a user message; `run` (default true) also starts a run. Rejects with the client's typed error. */
  send(text: string, options?: { run?: boolean }): Promise<void>;
  /** Starts a run (one already running is fine). */
  run(): Promise<void>;
  /** Pauses between steps. */
  pause(): Promise<void>;
  /** Stops the model call and running tools now. */
  interrupt(): Promise<void>;
  /** Accepts the pending actions, which then run. */
  confirm(): Promise<void>;
  /** Rejects the pending actions. */
  reject(reason?: string): Promise<void>;
  /** Fetches up to `limit` (default 50) events before `events[0]` and puts them in front (see `hasOlder`). */
  loadOlder(limit?: number): Promise<void>;
}

/**
 * Follows a conversation on an agent server: every event from the first (or from `fromIndex`, older ones on
 * demand with `loadOlder`), live, resumed by log index after a reconnect, with its state, status, pending
 * confirmations and streaming text. A new `baseUrl`, `conversationId`, `apiKey`, `resume`, `fromIndex` or
 * `reconnect` starts over with a new stream.
 */
export function useConversation(options: UseConversationOptions): UseConversationResult {
  const { baseUrl, conversationId, apiKey, resume, fromIndex } = options;
  const reconnect = JSON.stringify(options.reconnect ?? null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reconnect` stands for options.reconnect by value, so a literal object per render does not restart the stream.
  const store = useMemo(
    () => new ConversationStore(options),
    [baseUrl, conversationId, apiKey, resume, fromIndex, reconnect],
  );
  useEffect(() => {
    store.start();
    return () => store.stop();
  }, [store]);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return useMemo(() => {
    const { commands } = store;
    return {
      ...snapshot,
      send: (text, { run = true } = {}) => commands.sendMessage(text, { run }),
      run: () => commands.run(),
      pause: () => commands.pause(),
      interrupt: () => commands.interrupt(),
      confirm: () => commands.confirm(),
      reject: (reason) => commands.reject(reason),
      loadOlder: (limit) => store.loadOlder(limit),
    };
  }, [snapshot, store]);
}
