import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** What one session's replay buffer holds at most, by default: the oldest messages go first. */
export const DEFAULT_MAX_STORED_BYTES = 4 * 1024 * 1024;
/** Bookkeeping counted per stored message on top of its JSON, so many tiny messages are bounded too. */
const OVERHEAD_BYTES = 128;

interface StoredMessage {
  seq: number;
  id: EventId;
  streamId: StreamId;
  message: JSONRPCMessage;
  bytes: number;
}

/** Whether `lastEventId` can be resumed from, and if not why. */
export type ResumeCheck = 'stored' | 'evicted' | 'unknown';

/**
 * The replay buffer of one MCP session (the SDK's resumability `EventStore`): every message the session sends on
 * an SSE stream, with the event id the client echoes as `Last-Event-ID` when it reconnects. Bounded: past
 * `maxBytes` the oldest messages are dropped (a resume from before them is refused, and the client reads the
 * conversation's log through its resources instead); it lives and dies with its session.
 */
export class SessionEventStore implements EventStore {
  readonly #maxBytes: number;
  readonly #onStored: ((bytes: number) => void) | undefined;
  readonly #queue: StoredMessage[] = [];
  #head = 0;
  readonly #byId = new Map<EventId, StoredMessage>();
  readonly #byStream = new Map<StreamId, StoredMessage[]>();
  readonly #replaying = new Map<StreamId, (() => void)[]>();
  #seq = 0;
  #bytes = 0;

  constructor(options: { maxBytes?: number | undefined; onStored?: (bytes: number) => void } = {}) {
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_STORED_BYTES;
    this.#onStored = options.onStored;
  }

  /** Bytes held (messages' JSON plus bookkeeping). */
  get bytes(): number {
    return this.#bytes;
  }

  check(eventId: string): ResumeCheck {
    if (this.#byId.has(eventId)) return 'stored';
    // Only an id in the form this store gives (`String(seq)`, from 1) was ever sent: `0`, `007` or `` were not.
    return /^[1-9]\d{0,14}$/.test(eventId) && Number(eventId) <= this.#seq ? 'evicted' : 'unknown';
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.#seq += 1;
    const bytes = JSON.stringify(message).length + OVERHEAD_BYTES;
    const stored: StoredMessage = { seq: this.#seq, id: String(this.#seq), streamId, message, bytes };
    this.#queue.push(stored);
    this.#byId.set(stored.id, stored);
    const stream = this.#byStream.get(streamId);
    if (stream === undefined) this.#byStream.set(streamId, [stored]);
    else stream.push(stored);
    this.#bytes += bytes;
    this.#evict();
    this.#onStored?.(bytes);
    const waiters = this.#replaying.get(streamId);
    // While this stream is replayed, the transport has not yet attached the new connection: answering now would
    // let it look for the connection too early and drop the message (a gap). It is answered once attached.
    if (waiters !== undefined) await new Promise<void>((resolve) => waiters.push(resolve));
    return stored.id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#byId.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#byId.get(lastEventId);
    if (last === undefined) throw new Error(`Event '${lastEventId}' is not stored (evicted, or never sent)`);
    const { streamId } = last;
    const waiters: (() => void)[] = [];
    this.#replaying.set(streamId, waiters);
    try {
      const later = (this.#byStream.get(streamId) ?? []).filter((stored) => stored.seq > last.seq);
      for (const stored of later) {
        // The empty priming event only carries an id; there is nothing to deliver.
        if (Object.keys(stored.message).length > 0) await send(stored.id, stored.message);
      }
      return streamId;
    } finally {
      // The transport attaches the connection in the continuation of this call: release the held messages after.
      setImmediate(() => {
        if (this.#replaying.get(streamId) === waiters) this.#replaying.delete(streamId);
        for (const release of waiters) release();
      });
    }
  }

  /** Lets everything go (the session ended); held messages are released. */
  clear(): void {
    for (const waiters of this.#replaying.values()) for (const release of waiters) release();
    this.#replaying.clear();
    this.#queue.length = 0;
    this.#head = 0;
    this.#byId.clear();
    this.#byStream.clear();
    this.#bytes = 0;
  }

  #evict(): void {
    while (this.#bytes > this.#maxBytes && this.#head < this.#queue.length) {
      const oldest = this.#queue[this.#head] as StoredMessage;
      this.#head += 1;
      this.#bytes -= oldest.bytes;
      this.#byId.delete(oldest.id);
      const stream = this.#byStream.get(oldest.streamId);
      stream?.shift();
      if (stream?.length === 0) this.#byStream.delete(oldest.streamId);
    }
    // Compact now and then so the dropped front does not hold memory.
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue.splice(0, this.#head);
      this.#head = 0;
    }
  }
}
