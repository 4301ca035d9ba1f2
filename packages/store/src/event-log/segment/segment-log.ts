import { randomBytes } from 'node:crypto';
import type { AnyEvent } from '@x/events';
import { AppendConflictError } from '../../errors/append-conflict-error.js';
import type { DamagedSegmentError } from '../../errors/damaged-segment-error.js';
import { DuplicateEventIdError } from '../../errors/duplicate-event-id-error.js';
import { ReadOnlyLogError } from '../../errors/read-only-log-error.js';
import type { AppendFile } from '../../file-store.js';
import type { DamagedSegmentPolicy } from '../event-log-options.js';
import { eventIdOfPath } from '../file-names.js';
import type { LogCore } from '../log-core.js';
import type { LogSegment, SegmentAppend } from '../log-segment.js';
import { parseStoredEvent } from '../parse-stored-event.js';
import { DerivedEventFiles, type EventFilesWhen } from './derived-event-files.js';
import { batchOffset, batchWinners } from './segment-append-race.js';
import { lastRecordDamage, type SegmentDamage } from './segment-damage.js';
import type { CoveredRecord } from './segment-index.js';
import { SEGMENT_INDEX_MIN_COUNT } from './segment-index.js';
import { adoptSegmentIndex, writeSegmentIndex } from './segment-index-io.js';
import { isIndexWriteDue } from './segment-index-schedule.js';
import { SegmentListing } from './segment-listing.js';
import { SegmentPositions } from './segment-positions.js';
import { readRecordOf } from './segment-read-check.js';
import { HeldEvents, repairAndRead } from './segment-read-repair.js';
import {
  type DecodedRecords,
  decodeRecords,
  type EncodedRecord,
  encodeRecords,
  segmentPath,
} from './segment-records.js';
import { damagedSegmentError, recoverFromEventFiles, recoveryWarning, repairRecords } from './segment-recovery.js';
import { type RecordSelection, selectRecords } from './segment-selection.js';

/** Closes the segment's descriptor of a log that was dropped without `close`. */
const openFiles = new FinalizationRegistry<AppendFile>((file) => {
  void file.close().catch(() => undefined);
});

/**
 * A log's segment (`<dir>/.slots/segment`), the commit point of the segment layout: records appended with one
 * write and one fdatasync each (see segment-records.ts for the framing and the rule that says which records
 * are the log's events). Keeps, per index, where the event's bytes are, so a read is one positioned read.
 */
export class SegmentLog implements LogSegment {
  readonly path: string;
  #file: AppendFile | undefined;
  /** Offset just past the last record this instance consumed. */
  scanned = 0;
  /** Per index: the offset of the event's bytes in the segment and their length. */
  readonly #positions = new SegmentPositions();
  /** The record of the event at `length - 1` (for the segment index's check). */
  #lastRecord: CoveredRecord | undefined;
  /** Events the segment index this instance last read or wrote covers (and its checked event files); its writes. */
  #indexed = 0;
  #indexedChecked = 0;
  /** The directory's listing for event files the segment does not hold, and the one that refuses appends. */
  readonly listing = new SegmentListing();
  #indexWrite: Promise<void> = Promise.resolve();
  readonly #core: LogCore;
  /** This instance's token in its records' headers (see `encodeRecords`). */
  readonly #writer = randomBytes(8).toString('hex');
  /** The reference's event files: when they are written, and how many are known whole. */
  readonly files: DerivedEventFiles;
  readonly #damagedSegment: DamagedSegmentPolicy;
  /** Set when damage past recovery left this instance the events before it, read-only (`'read-intact-prefix'`). */
  #intactPrefix: DamagedSegmentError | undefined;
  /** Events recovered from their event files by an instance that must not write (so not in the segment). */
  readonly #held = new HeldEvents();
  /** Repairs of damage met by reads, one at a time (see `bytesOf`). */
  #readRepairs: Promise<unknown> = Promise.resolve();
  /** The last event's bytes were moved by a read's repair: `#lastRecord` no longer holds them, so no index is written. */
  #lastMoved = false;

  private constructor(core: LogCore, file: AppendFile, owner: object, options: SegmentLogOptions) {
    this.#core = core;
    this.#damagedSegment = options.damagedSegment ?? 'recover';
    this.files = new DerivedEventFiles(core, { when: options.eventFiles, scope: file.scope });
    this.path = segmentPath(core.dir);
    this.#file = file;
    openFiles.register(owner, file, this);
  }

  /**
   * Opens the segment (creating it when missing) and records its events in `core`: those its segment index
   * covers, when it matches the segment (see `adoptSegmentIndex`), from the index; the rest read from the segment.
   */
  static async open(core: LogCore, owner: object, options: SegmentLogOptions): Promise<SegmentLog> {
    const file = await core.store.openAppendFile!(segmentPath(core.dir));
    const segment = new SegmentLog(core, file, owner, options);
    try {
      const adopted = await adoptSegmentIndex(core, file);
      if (adopted !== undefined) {
        segment.#positions.adopt(adopted.pairs, adopted.count);
        segment.#lastRecord = adopted.last;
        segment.#indexed = adopted.count;
        segment.scanned = adopted.size;
        segment.listing.adopt(adopted.listing, adopted.count);
        // Files an earlier instance checked (or wrote) in this scope are whole still: the open's check skips them.
        if (adopted.files !== undefined && adopted.files.scope === segment.files.scope) {
          segment.files.advance(Math.min(adopted.files.count, adopted.count));
          segment.#indexedChecked = segment.files.checked;
        }
      }
      await segment.catchUp();
    } catch (error) {
      // A failed open (a damaged segment among others) leaves no descriptor for the garbage collector to close.
      openFiles.unregister(segment);
      await file.close().catch(() => undefined);
      throw error;
    }
    return segment;
  }

  /**
   * Writes the segment index when it is due (see `isIndexWriteDue`), unless this instance must not write it.
   * Resolves when written; never rejects (see `writeSegmentIndex`).
   */
  writeIndexIfDue(when: 'open' | 'append' | 'close'): Promise<void> | undefined {
    const core = this.#core;
    const count = core.length;
    if (!core.writesNameIndex || !core.rollsForward || this.readOnly || this.#lastMoved) return undefined;
    const { scope, checked } = this.files;
    const listing = when === 'close' ? this.listing.atClose : undefined;
    const moreChecked =
      when === 'close' && ((scope !== undefined && checked > this.#indexedChecked) || listing !== this.listing.indexed);
    if (!isIndexWriteDue({ when, count, indexed: this.#indexed, moreChecked })) return undefined;
    // Taken now, written later: the events up to `count` never change, so the snapshot stays true.
    const snapshot = {
      count,
      size: this.#positions.offsetOf(count - 1) + this.#positions.lengthOf(count - 1),
      last: this.#lastRecord!,
      pairs: this.#positions.pairs(count),
      namesText: core.paths.namesText(`${core.dir}/`, count),
      files: scope === undefined ? undefined : { scope, count: checked },
      listing,
    };
    this.#indexed = count;
    this.#indexedChecked = checked;
    this.listing.indexed = listing;
    this.#indexWrite = this.#indexWrite.then(() => writeSegmentIndex(core, snapshot));
    return this.#indexWrite;
  }

  async #opened(): Promise<AppendFile> {
    this.#file ??= await this.#core.store.openAppendFile!(this.path);
    return this.#file;
  }

  /** Releases the descriptor (reopened on next use), so the directory may be removed or copied. */
  async close(): Promise<void> {
    try {
      await this.files.flush();
      // Only where a segment index will record what it finds.
      if (this.#core.writesNameIndex && this.#core.length >= SEGMENT_INDEX_MIN_COUNT) {
        await this.files.checkUpTo(this.#core.length, (index) => this.#positions.lengthOf(index));
        await this.listing.listAtClose(this.#core);
      }
      this.writeIndexIfDue('close');
      await this.#indexWrite;
    } finally {
      // Closed whatever failed above (a custom store's fault while writing the last event files): the caller gets
      // that error, not a descriptor held for the life of the process.
      const file = this.#file;
      this.#file = undefined;
      await file?.close();
    }
  }

  /** Opened past damage it could not repair (`'read-intact-prefix'`): reads only, of the events before the damage. */
  get readOnly(): boolean {
    return this.#intactPrefix !== undefined;
  }

  /**
   * Throws `ReadOnlyLogError` when the log was opened read-only (see `readOnly`), or the `CorruptEventError` of an
   * event file at the log's next index that the segment could not take (`listing.refused`): before anything of
   * an append.
   */
  assertWritable(): void {
    if (this.listing.refused !== undefined) throw this.listing.refused;
    if (this.#intactPrefix === undefined) return;
    const core = this.#core;
    throw new ReadOnlyLogError({
      location: core.store.describe(core.dir),
      length: core.length,
      cause: this.#intactPrefix,
    });
  }

  /**
   * Reads what other writers appended since the last look and records it; how many events were new. Damage to a
   * committed record is repaired from the event files where the hash chain proves them (see `#recover`).
   */
  async catchUp(): Promise<number> {
    if (this.#intactPrefix !== undefined) return 0;
    const before = this.#core.length;
    /** The damaged runs repaired by this call: a repair its reading back does not find is not written twice. */
    const repaired = new Set<number>();
    for (;;) {
      const file = await this.#opened();
      const base = this.scanned;
      const bytes = await file.readFrom(base);
      const decoded = decodeRecords(bytes, base);
      const core = this.#core;
      // A last record changed after it committed would otherwise read as a crash's cut-short tail: the log would
      // lose its event silently, and the next append would take its index.
      const damage =
        this.#consume(decoded, bytes, base).damage ??
        lastRecordDamage(bytes, base, decoded.end, { next: core.length, prev: core.lastLink?.hash ?? null });
      if (damage === undefined) return this.#core.length - before;
      if (repaired.has(damage.run.offset)) throw damagedSegmentError(core, damage, []);
      repaired.add(damage.run.offset);
      await this.#recover(damage);
      if (this.#intactPrefix !== undefined) return this.#core.length - before;
    }
  }

  /**
   * Restores the events `damage` took from their event files, where the hash chain proves them (see
   * `recoverFromEventFiles`), and warns naming the segment, the damaged bytes and the events. A writer repairs the
   * segment: it appends them again, as records with their original links, which every reader takes in place of the
   * damaged ones (see `findRepairRecords`), and reads them back. A reader that must not write holds them in memory.
   * Where they cannot be proven: `DamagedSegmentError` naming them, or, with `'read-intact-prefix'`, the events
   * before the damage, read-only.
   */
  async #recover(damage: SegmentDamage): Promise<void> {
    const core = this.#core;
    const result = await recoverFromEventFiles(core, damage);
    if ('unrecovered' in result) {
      const error = damagedSegmentError(core, damage, result.unrecovered);
      if (this.#damagedSegment !== 'read-intact-prefix') throw error;
      this.#intactPrefix = error;
      core.logger?.warn(`${error.message}; opened read-only with the ${core.length} events before the damage`);
      return;
    }
    const { recovered } = result;
    if (core.rollsForward) {
      const by = { writer: this.#writer, location: core.store.describe(this.path) };
      await (await this.#opened()).append(repairRecords(recovered, damage, by));
      core.logger?.warn(recoveryWarning(core, damage, recovered, 'appended to the segment again'));
      return;
    }
    for (const { event, json, link } of recovered) {
      const data = this.#held.hold(json, link);
      core.push(core.eventPath(link.index, event.id), undefined, link);
      this.#positions.push(-1, data.length);
    }
    // Past the damage: the record after it (if any) now chains to the last event recovered.
    this.scanned = damage.run.end;
    core.logger?.warn(recoveryWarning(core, damage, recovered, 'kept in memory (this reader does not write)'));
  }

  /**
   * Records the log's events among `decoded` (read from file offset `base`: see `selectRecords`), warns about runs
   * skipped as not intact, and moves `scanned` to where the selection stopped; returns the selection.
   */
  #consume(decoded: DecodedRecords, bytes: Uint8Array, base: number): RecordSelection {
    const core = this.#core;
    const selection = selectRecords(decoded, {
      bytes,
      base,
      next: core.length,
      prev: core.lastLink?.hash ?? null,
      known: (id) => core.findId(id) !== undefined,
    });
    for (const record of selection.accepted) {
      core.push(core.eventPath(record.link.index, record.link.id), undefined, record.link);
      this.#positions.push(record.jsonOffset, record.jsonLength);
      this.#lastRecord = { offset: record.offset, crc: record.crc };
      this.#lastMoved = false;
    }
    for (const run of selection.unexplained) {
      core.logger?.warn(
        `${core.store.describe(this.path)}: bytes ${run.offset}…${run.end - 1} are not an intact record (a write cut short by a crash, or damage) and were skipped`,
      );
    }
    this.scanned = selection.stop;
    return selection;
  }

  /**
   * Appends `batch` as the log's next events with one write (and, durable, one fdatasync) and resolves with
   * their indices. When another writer's records landed first, this one's lost the race (see `SegmentChain`):
   * they are learned, and the batch is written again after them, unless `expectedIndex` says it must not move.
   */
  async append(batch: readonly SegmentAppend[], expectedIndex: number | undefined): Promise<number[]> {
    const core = this.#core;
    const file = await this.#opened();
    const indices: number[] = [];
    let rest = batch;
    for (;;) {
      // Also after damage learned below that left the log read-only: nothing more is written.
      this.assertWritable();
      for (const { event } of rest) core.rejectDuplicate(event.id);
      if (expectedIndex !== undefined && indices.length === 0 && expectedIndex !== core.length) {
        throw new AppendConflictError({ eventId: rest[0]!.event.id, expectedIndex, actualIndex: core.length });
      }
      const start = core.length;
      const previous = start === 0 ? null : (core.lastLink?.hash ?? null);
      const { bytes, records } = encodeRecords(rest, start, previous, this.#writer);
      const before = this.scanned;
      this.files.commitStarts();
      const size = await file.append(bytes);
      let won: number;
      if (size === before + bytes.length) {
        // Nothing landed since this instance last looked: the records are at `before`, in order, and all accepted.
        won = rest.length;
        rest.forEach(({ event }, offset) => {
          const { link, offset: at, end, crc, json } = records[offset]!;
          this.#lastRecord = { offset: before + at, crc };
          this.#lastMoved = false;
          core.push(core.eventPath(link.index, event.id), event, link);
          this.#positions.push(before + end - json.length, json.length);
        });
        this.scanned = size;
      } else {
        const tail = await file.readFrom(before, size - before);
        const at = batchOffset(tail, before, bytes, core.store.describe(this.path));
        const { accepted, damage } = this.#consume(decodeRecords(tail, before), tail, before);
        // Damage in what other writers appended since the last look: repaired (or refused) as `catchUp` does; the
        // batch, not accepted past the damage, is written again after what that learns.
        if (damage !== undefined) await this.catchUp();
        const winners = batchWinners(accepted, { at, length: bytes.length, count: rest.length });
        for (const [offset, record] of winners.entries()) core.cache.set(record.link.index, rest[offset]!.event);
        won = winners.length;
      }
      if (won > 0) core.appended = true;
      for (let offset = 0; offset < won; offset++) indices.push(start + offset);
      await this.#publish(records.slice(0, won), start);
      rest = rest.slice(won);
      if (rest.length === 0) return indices;
      const taken = core.findId(rest[0]!.event.id);
      if (taken !== undefined) throw new DuplicateEventIdError(rest[0]!.event.id, taken);
      if (expectedIndex !== undefined) {
        throw new AppendConflictError({ eventId: rest[0]!.event.id, expectedIndex, actualIndex: core.length });
      }
    }
  }

  /**
   * Writes the reference's event files of events the segment committed (`<dir>/event-….json`), without
   * waiting for them to be durable: the segment holds them, and `open` rebuilds any a power loss lost.
   */
  async #publish(records: readonly EncodedRecord[], start: number): Promise<void> {
    const core = this.#core;
    // The bytes just committed (views of the record buffer), not the text: no second encoding of each event.
    await this.files.committed(
      records.map(({ json }, offset) => ({ path: core.paths.at(start + offset)!, data: json, index: start + offset })),
    );
  }

  /** The event at `index` (within bounds), from its record. */
  async read(index: number): Promise<AnyEvent> {
    const bytes = await this.bytesOf(index);
    const location = `${this.#core.store.describe(this.path)} (event ${index})`;
    return parseStoredEvent({
      text: Buffer.from(bytes).toString('utf8'),
      location,
      expectedId: eventIdOfPath(this.#core.paths.at(index)!),
    });
  }

  /** The length of event `index`'s bytes. */
  jsonLengthOf(index: number): number {
    return this.#positions.lengthOf(index);
  }

  /**
   * The exact bytes of event `index`'s record (for rebuilding its event file), its record checked (see
   * `readRecordOf`). A record no longer intact is repaired as the open repairs one (see `repairDamagedRead`).
   */
  async bytesOf(index: number): Promise<Uint8Array> {
    const held = this.#held.bytes.get(index);
    if (held !== undefined) return held;
    const id = eventIdOfPath(this.#core.paths.at(index)!);
    const read = await readRecordOf(await this.#opened(), this.#positions, { index, id });
    if (read.record !== undefined) return read.record.json;
    // One repair at a time: the next finds what the one before repaired, and repairs nothing twice.
    const repaired = this.#readRepairs.then(async () => {
      const core = this.#core;
      const writer = core.rollsForward && !this.readOnly ? this.#writer : undefined;
      const context = { core, file: await this.#opened(), positions: this.#positions, held: this.#held, writer };
      const { bytes, moved } = await repairAndRead(context, { index, id });
      if (moved.includes(core.length - 1)) this.#lastMoved = true;
      // The segment index this instance writes next carries the new positions (the one read at open does not).
      if (moved.length > 0) this.#indexed = Math.min(this.#indexed, ...moved);
      return bytes;
    });
    this.#readRepairs = repaired.catch(() => undefined);
    return repaired;
  }
}

/** Options of `SegmentLog.open`. */
export interface SegmentLogOptions {
  readonly eventFiles: EventFilesWhen;
  readonly damagedSegment?: DamagedSegmentPolicy | undefined;
}
