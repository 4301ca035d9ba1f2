import type { PoolClient } from 'pg';

type Wake = (index: number) => void;

/**
 * One LISTEN connection per database, fanning the append notifications (`<prefix>events`, payload
 * `<log id> <index>`) out to the subscriptions of each log. Notifications only wake readers; the
 * table stays the source, so a lost notification costs at most one poll interval. Each time the LISTEN takes
 * effect (first use, after a reconnect) every watcher is woken with index +∞, for what committed before it.
 */
export class EventNotifier {
  readonly #connect: () => Promise<PoolClient>;
  readonly #channel: string;
  readonly #wakers = new Map<string, Set<Wake>>();
  #client: Promise<(() => void) | undefined> | undefined;
  #closed = false;

  constructor(options: { connect: () => Promise<PoolClient>; channel: string }) {
    this.#connect = options.connect;
    this.#channel = options.channel;
  }

  /** Calls `wake` for each append to `logId`; returns the function that stops it. */
  watch(logId: string, wake: Wake): () => void {
    this.#ensureListening();
    let set = this.#wakers.get(logId);
    if (set === undefined) {
      set = new Set();
      this.#wakers.set(logId, set);
    }
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0) this.#wakers.delete(logId);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const release = await this.#client?.catch(() => undefined);
    release?.();
  }

  #ensureListening(): void {
    if (this.#client !== undefined || this.#closed) return;
    this.#client = this.#listen().catch(() => {
      // Polling covers the gap; the next watch tries again.
      this.#client = undefined;
      return undefined;
    });
  }

  /** Opens the LISTEN connection; resolves with the function that releases it (once). */
  async #listen(): Promise<() => void> {
    const client = await this.#connect();
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      client.release(true);
    };
    const drop = (): void => {
      if (released) return;
      release();
      this.#client = undefined;
      if (!this.#closed && this.#wakers.size > 0) this.#ensureListening();
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      const space = payload.lastIndexOf(' ');
      const wakers = this.#wakers.get(payload.slice(0, space));
      if (wakers === undefined) return;
      const index = Number(payload.slice(space + 1));
      for (const wake of [...wakers]) wake(index);
    });
    await client.query(`LISTEN ${this.#channel}`);
    // Appends committed before the LISTEN took effect (the first watch, a reconnect) announced themselves to no
    // one: wake every watched log to read the table once (index +∞: "anything").
    for (const wakers of [...this.#wakers.values()]) for (const wake of [...wakers]) wake(Number.POSITIVE_INFINITY);
    return release;
  }
}
