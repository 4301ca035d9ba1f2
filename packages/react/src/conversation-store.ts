import {
  type ConversationCommands,
  type ConversationEventStream,
  createConversationCommands,
  type ReconnectOptions,
  type ResumeMode,
  streamConversationEvents,
} from '@x/client';
import {
  applyFrames,
  type ConversationSnapshot,
  initialConversationSnapshot,
  type StreamFrame,
} from './conversation-snapshot.js';

export interface ConversationStoreOptions {
  /** The server's base URL, e.g. `location.origin` for a page the server serves. */
  baseUrl: string;
  conversationId: string;
  /** Session API key: sent as a header on REST calls and in the WebSocket's first frame. */
  apiKey?: string;
  /** Reconnection after a dropped stream; default 1 s doubling to 30 s, unlimited. */
  reconnect?: boolean | ReconnectOptions;
  /** How the stream resumes (see `ResumeMode` in @x/client). Default `auto`. */
  resume?: ResumeMode;
}

/**
 * One conversation's live snapshot, without React: the whole log from index 0, then live, resumed by index
 * after a dropped connection (and after `stop()` then `start()`), so no event is missed or repeated. Frames are
 * applied in one batch per microtask, so a replay of a long log makes one update, not one per event.
 * `subscribe` and `getSnapshot` fit `useSyncExternalStore` (React, `preact/compat`).
 */
export class ConversationStore {
  readonly commands: ConversationCommands;
  readonly #options: ConversationStoreOptions;
  readonly #listeners = new Set<() => void>();
  #snapshot: ConversationSnapshot = initialConversationSnapshot;
  #pending: StreamFrame[] = [];
  #flushScheduled = false;
  #stream: ConversationEventStream | undefined;
  /** Frames of a stream stopped since are ignored: a socket may deliver a frame after it was asked to close. */
  #generation = 0;

  constructor(options: ConversationStoreOptions) {
    this.#options = options;
    this.commands = createConversationCommands(
      options.baseUrl,
      options.conversationId,
      options.apiKey === undefined ? {} : { apiKey: options.apiKey },
    );
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): ConversationSnapshot => this.#snapshot;

  /** Opens the stream (again after `stop()`), from the first event not held yet. */
  start(): void {
    if (this.#stream !== undefined) return;
    this.#flush();
    const generation = ++this.#generation;
    const current = (): boolean => generation === this.#generation;
    const { baseUrl, conversationId, apiKey, reconnect, resume } = this.#options;
    this.#update({ connection: 'connecting' });
    const stream = streamConversationEvents(baseUrl, conversationId, {
      fromIndex: this.#snapshot.events.length,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(reconnect === undefined ? {} : { reconnect }),
      ...(resume === undefined ? {} : { resume }),
      onEvent: (event, index) => {
        if (current()) this.#enqueue({ event, index });
      },
      onReady: () => {
        if (current()) this.#update({ connection: 'open', error: undefined });
      },
      onDisconnect: () => {
        if (current()) this.#update({ connection: 'reconnecting' });
      },
    });
    this.#stream = stream;
    stream.done.then(
      () => {
        if (current()) this.#update({ connection: 'closed' });
      },
      (error: unknown) => {
        if (current())
          this.#update({ connection: 'closed', error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
  }

  /** Closes the stream; the snapshot stays as it is. */
  stop(): void {
    const stream = this.#stream;
    if (stream === undefined) return;
    this.#flush();
    this.#stream = undefined;
    this.#generation += 1;
    stream.close();
    this.#update({ connection: 'closed' });
  }

  #enqueue(frame: StreamFrame): void {
    this.#pending.push(frame);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    queueMicrotask(() => this.#flush());
  }

  #flush(): void {
    this.#flushScheduled = false;
    if (this.#pending.length === 0) return;
    const frames = this.#pending;
    this.#pending = [];
    this.#publish(applyFrames(this.#snapshot, frames));
  }

  #update(change: Partial<Pick<ConversationSnapshot, 'connection' | 'error'>>): void {
    this.#flush();
    this.#publish({ ...this.#snapshot, ...change });
  }

  #publish(next: ConversationSnapshot): void {
    this.#snapshot = next;
    for (const listener of this.#listeners) listener();
  }
}
