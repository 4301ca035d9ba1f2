import type { AnyEvent, StreamingDeltaEvent } from '@x/events';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';

/** A token delta and the log's length when it was published: it follows every log event below that index. */
export interface FedDelta {
  readonly event: StreamingDeltaEvent;
  readonly after: number;
}

/** How long one wait for the run's end lasts before checking again. */
const RUN_WAIT_MS = 60_000;

/**
 * One conversation's deltas as long as an AG-UI stream is attached or the run they watched goes on (a dropped
 * client's run): remembers when the last delta came, so a stream reattaching in the middle of a run knows whether a
 * model call is streaming that it missed the start of.
 */
class DeltaWatch {
  readonly feeds = new Set<DeltaFeed>();
  /** The log's length when the last delta was published. */
  lastDeltaAfter: number | undefined;
  readonly #conversation: ManagedConversation;
  readonly #unsubscribe: () => void;

  constructor(conversation: ManagedConversation) {
    this.#conversation = conversation;
    this.#unsubscribe = conversation.onPublished((event) => this.#onPublished(event));
  }

  release(feed: DeltaFeed): void {
    this.feeds.delete(feed);
    if (this.feeds.size > 0) return;
    void (async () => {
      while (this.#conversation.isRunning) await this.#conversation.waitForRun(RUN_WAIT_MS);
      if (this.feeds.size > 0 || watches.get(this.#conversation) !== this) return;
      watches.delete(this.#conversation);
      this.#unsubscribe();
    })();
  }

  #onPublished(event: AnyEvent): void {
    if (event.kind !== 'StreamingDeltaEvent') return;
    const delta = { event, after: this.#conversation.log.length };
    this.lastDeltaAfter = delta.after;
    for (const feed of this.feeds) feed.push(delta);
  }
}

const watches = new WeakMap<ManagedConversation, DeltaWatch>();

/**
 * The model's token deltas (published, never logged) from the moment it is made, for one AG-UI stream: made before
 * the run input is applied, so no delta of the run it starts is missed. `midRunFrom` is set when a model call may
 * be streaming whose first deltas this feed never saw (a reattach while a delta came since the last log event, or
 * while a run goes on that no stream watched): the log's length then.
 */
export class DeltaFeed {
  readonly midRunFrom: number | undefined;
  readonly #watch: DeltaWatch;
  #buffered: FedDelta[] = [];
  #sink: ((delta: FedDelta) => void) | undefined;
  #stopped = false;

  constructor(conversation: ManagedConversation) {
    const known = watches.get(conversation);
    const length = conversation.log.length;
    const streaming = known === undefined ? conversation.isRunning : known.lastDeltaAfter === length;
    this.midRunFrom = streaming ? length : undefined;
    this.#watch = known ?? new DeltaWatch(conversation);
    watches.set(conversation, this.#watch);
    this.#watch.feeds.add(this);
  }

  /** Hands the deltas fed so far, then every later one, to `sink`. */
  attach(sink: (delta: FedDelta) => void): void {
    this.#sink = sink;
    const buffered = this.#buffered;
    this.#buffered = [];
    for (const delta of buffered) sink(delta);
  }

  push(delta: FedDelta): void {
    if (this.#sink === undefined) this.#buffered.push(delta);
    else this.#sink(delta);
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#sink = undefined;
    this.#buffered = [];
    this.#watch.release(this);
  }
}
