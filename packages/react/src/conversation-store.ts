import {
  type ConversationCommands,
  type ConversationEventStream,
  createConversationCommands,
  fetchEventsBefore,
  type ReconnectOptions,
  type ResumeMode,
  streamConversationEvents,
} from '@x/client';
import {
  applyFrames,
  type ConversationSnapshot,
  initialConversationSnapshot,
  prependEvents,
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
  /**
   * Log index of the first event to load; negative counts back from the end when the stream opens (`-50`: the
   * last 50 events, then live). Older events come with `loadOlder()`. Default 0: the whole log.
   */
  fromIndex?: number;
}

/**
 * One conversation's live snapshot, without React: the log from index 0 (or from `fromIndex`, older pages on
 * demand), then live, resumed by index after a dropped connection (and after `stop()` then `start()`), so no
 * event is missed or repeated and nothing already held is fetched again. Frames are
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
  /** The window's start is known (a connection was ready): later streams go on from the end of the window. */
  #anchored = false;
  /**
   * Id of the oldest event loaded, readable or not, which the next older page is asked before: once a page ended
   * with unreadable events, `events[0]` is newer than them, and a page before it would cover them twice.
   */
  #oldestLoadedId: string | undefined;

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

  /** Opens the stream (again after `stop()`, or after it ended by itself), from the first event not held yet. */
  start(): void {
    if (this.#stream !== undefined) return;
    this.#flush();
    const generation = ++this.#generation;
    const current = (): boolean => generation === this.#generation;
    const { baseUrl, conversationId, apiKey, reconnect, resume } = this.#options;
    this.#update({ connection: 'connecting' });
    const stream = streamConversationEvents(baseUrl, conversationId, {
      fromIndex: this.#anchored ? this.#snapshot.nextIndex : (this.#options.fromIndex ?? 0),
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(reconnect === undefined ? {} : { reconnect }),
      ...(resume === undefined ? {} : { resume }),
      onEvent: (event, index) => {
        if (current()) this.#enqueue({ event, index });
      },
      onReady: () => {
        if (!current()) return;
        this.#update({ connection: 'open', error: undefined });
        if (this.#anchored || this.#snapshot.events.length > 0) return;
        // Nothing replayed yet: the stream's next index is where the window starts (a negative `fromIndex` resolved).
        this.#anchored = true;
        const { nextIndex } = stream;
        this.#publish({ ...this.#snapshot, firstIndex: nextIndex, nextIndex, hasOlder: nextIndex > 0 });
      },
      onDisconnect: () => {
        if (current()) this.#update({ connection: 'reconnecting' });
      },
    });
    this.#stream = stream;
    // A stream that ended by itself (a fatal error, a drop without reconnection) is forgotten, so `start()` retries.
    stream.done.then(
      () => {
        if (!current()) return;
        this.#stream = undefined;
        this.#update({ connection: 'closed' });
      },
      (error: unknown) => {
        if (!current()) return;
        this.#stream = undefined;
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

  /**
   * Fetches up to `limit` (an integer from 1 to 99, default 50) events before the oldest one loaded and puts them in
   * front. Does nothing when none is older, none is held yet, or a load is in progress; a failure (an invalid `limit`
   * included) is the snapshot's `error`.
   */
  async loadOlder(limit = 50): Promise<void> {
    this.#flush();
    const first = this.#snapshot.events[0];
    if (first === undefined || !this.#snapshot.hasOlder || this.#snapshot.loadingOlder) return;
    const anchor = this.#oldestLoadedId ?? first.id;
    const { baseUrl, conversationId, apiKey } = this.#options;
    this.#update({ loadingOlder: true });
    try {
      const page = await fetchEventsBefore(baseUrl, conversationId, anchor, {
        limit,
        ...(apiKey === undefined ? {} : { apiKey }),
      });
      this.#flush();
      if (this.#snapshot.events[0]?.id === first.id) {
        this.#publish(prependEvents(this.#snapshot, page));
        this.#oldestLoadedId = page.oldestEventId ?? this.#oldestLoadedId;
      }
      this.#update({ loadingOlder: false });
    } catch (error) {
      this.#update({ loadingOlder: false, error: error instanceof Error ? error : new Error(String(error)) });
    }
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

  #update(change: Partial<Pick<ConversationSnapshot, 'connection' | 'error' | 'loadingOlder'>>): void {
    this.#flush();
    this.#publish({ ...this.#snapshot, ...change });
  }

  #publish(next: ConversationSnapshot): void {
    this.#snapshot = next;
    for (const listener of this.#listeners) listener();
  }
}
