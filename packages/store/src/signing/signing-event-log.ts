import type { KeyObject } from 'node:crypto';
import { type AnyEvent, isRoundTripSafe, parseEventJson, serializeEvent } from '@x/events';
import type { ChainReport } from '../chain/verify-report.js';
import { InvalidEventIdError } from '../errors/invalid-event-id-error.js';
import type { EventLogAppendOptions, EventLogLike, LogGap } from '../event-log/event-log-like.js';
import { isStorableEventId } from '../event-log/file-names.js';
import type { LogEntry, SubscribeOptions } from '../event-log/subscription.js';
import type { FileStore } from '../file-store.js';
import { assertSigningKey, signEvent } from './sign-event.js';
import {
  type SignatureLocation,
  type SignatureRecord,
  writeSignatureRecord,
  writeSignatureRecordIfAbsent,
} from './signature-record.js';

/** Picks the key that signs an event (by its `source`, say), or none to leave it unsigned. */
export type EventSigner = (event: AnyEvent) => KeyObject | undefined;

/** Options of `createSigningEventLog`. */
export interface SigningEventLogOptions extends SignatureLocation {
  /** A key that signs every event, or a function choosing one per event. */
  signer: KeyObject | EventSigner;
}

/**
 * Wraps a log so that every event appended through it is signed first: its signature record is written to
 * `<dir>/.chain/signatures/<id>.json` (see `SignatureRecord`), then the event is appended unchanged, so event
 * files keep the reference's format. The record is written before the event: a signed event is never seen
 * without its signature (a record left by an append that then failed names an event that is not there, and is
 * ignored, or replaced when an event with that id is appended). An append the log would refuse as invalid, or as
 * a duplicate of an event it holds, writes no record: the held event's record stays. Everything else is the
 * wrapped log's.
 */
export function createSigningEventLog(
  log: EventLogLike,
  options: SigningEventLogOptions,
): EventLogLike & SignatureLocation {
  const { signer } = options;
  if (typeof signer !== 'function') assertSigningKey(signer);
  return new SigningEventLog(log, options.store, options.dir, typeof signer === 'function' ? signer : () => signer);
}

class SigningEventLog implements EventLogLike, SignatureLocation {
  readonly #log: EventLogLike;
  readonly #signer: EventSigner;
  readonly store: FileStore;
  readonly dir: string;
  readonly appendMany:
    | ((events: readonly AnyEvent[], options?: EventLogAppendOptions) => Promise<number[]>)
    | undefined;
  readonly close: (() => Promise<void>) | undefined;

  constructor(log: EventLogLike, store: FileStore, dir: string, signer: EventSigner) {
    this.#log = log;
    this.#signer = signer;
    this.store = store;
    this.dir = dir;
    const appendMany = log.appendMany?.bind(log);
    this.appendMany =
      appendMany === undefined
        ? undefined
        : async (events, options) => {
            // Every event is checked before any record is written: a batch the log refuses leaves none behind.
            const signed = events.map((event) => this.#check(event, { unsigned: true }));
            await Promise.all(signed.map((sign) => sign?.()));
            // The options (a fence, the expected index) are the wrapped log's to honour, as for `append`.
            return appendMany(events, options);
          };
    this.close = log.close?.bind(log);
  }

  get length(): number {
    return this.#log.length;
  }

  get fencesAppends(): boolean | undefined {
    return this.#log.fencesAppends;
  }

  /** The wrapped log's gap: a caller checks it before recording anything (a signature record included). */
  get gap(): LogGap | undefined {
    return this.#log.gap;
  }

  async append(event: AnyEvent, options?: EventLogAppendOptions): Promise<number> {
    // Alone, an unsigned event leaves no record to refuse it before: the log's own checks are enough.
    await this.#check(event, { unsigned: false })?.();
    return this.#log.append(event, options);
  }

  /**
   * Checks `event` as the log will, and signs it: returns what writes its record, or undefined when its signer
   * leaves it unsigned. What the log would refuse is refused before any record is written, with the log's own
   * errors: an invalid event (EventParseError), an id that cannot name a file (the record's path is made of it:
   * `../..` would write outside the signatures). With `unsigned`, an event left unsigned is checked too: in a batch,
   * one the log refuses refuses it all, records included.
   */
  #check(event: AnyEvent, options: { unsigned: boolean }): (() => Promise<void>) | undefined {
    const key = this.#signer(event);
    if (key === undefined && !options.unsigned) return undefined;
    const checked = isRoundTripSafe(event) ? event : parseEventJson(serializeEvent(event));
    if (!isStorableEventId(checked.id)) throw new InvalidEventIdError(checked.id);
    if (key === undefined) return undefined;
    const record = signEvent(event, key);
    return () => this.#write(event, record);
  }

  async #write(event: AnyEvent, record: SignatureRecord): Promise<void> {
    if (await writeSignatureRecordIfAbsent(this, record)) return;
    // The id has a record already: that of the event the log holds under it, which this append (a duplicate the
    // log will refuse) must not replace, or one an append that then failed left, which this one replaces.
    if (this.#log.indexOf(event.id) !== -1) return;
    await this.#log.refresh();
    if (this.#log.indexOf(event.id) !== -1) return;
    await writeSignatureRecord(this, record);
  }

  indexOf(id: string): number {
    return this.#log.indexOf(id);
  }
  idAt(index: number): string {
    return this.#log.idAt(index);
  }
  get(index: number): Promise<AnyEvent> {
    return this.#log.get(index);
  }
  getById(id: string): Promise<AnyEvent> {
    return this.#log.getById(id);
  }
  range(start: number, end?: number): Promise<AnyEvent[]> {
    return this.#log.range(start, end);
  }
  iterate(from?: number): AsyncGenerator<AnyEvent, void, undefined> {
    return this.#log.iterate(from);
  }
  [Symbol.asyncIterator](): AsyncGenerator<AnyEvent, void, undefined> {
    return this.#log[Symbol.asyncIterator]();
  }
  refresh(): Promise<number> {
    return this.#log.refresh();
  }
  subscribe(fromIndex?: number, options?: SubscribeOptions): AsyncIterable<LogEntry> {
    return this.#log.subscribe(fromIndex, options);
  }
  listen(
    fromIndex: number,
    listener: (entry: LogEntry) => void | Promise<void>,
    options?: SubscribeOptions & { onError?: (error: unknown) => void },
  ): () => void {
    return this.#log.listen(fromIndex, listener, options);
  }
  verifyChain(options?: { publicKey?: KeyObject }): Promise<ChainReport> {
    return this.#log.verifyChain(options);
  }
}
