import type { AnyEvent } from '@x/events';

/** What an append hands the segment: a validated event and its exact bytes. */
export interface SegmentAppend {
  readonly event: AnyEvent;
  readonly json: string;
}

/**
 * What the log asks of its segment in the segment layout (the commit point, and where events are read
 * from); `SegmentLog` (segment/segment-log.ts) is the one implementation. `LogCore` holds the segment by
 * this interface, not by the class, because the class is built on `LogCore`: naming it here would make
 * the two modules import each other.
 */
export interface LogSegment {
  /** The event at `index` (within bounds), from its record. */
  read(index: number): Promise<AnyEvent>;
  /** Throws `ReadOnlyLogError` when the log was opened read-only, past damage (see `EventLogOptions.damagedSegment`). */
  assertWritable(): void;
  /** Reads what other writers appended since the last look and records it; how many events were new. */
  catchUp(): Promise<number>;
  /** Appends `batch` as the log's next events and resolves with their indices (see `SegmentLog.append`). */
  append(batch: readonly SegmentAppend[], expectedIndex: number | undefined): Promise<number[]>;
  /** Writes the segment index when due; resolves when written, never rejects (see `SegmentLog.writeIndexIfDue`). */
  writeIndexIfDue(when: 'open' | 'append' | 'close'): Promise<void> | undefined;
  /** Releases the descriptor (reopened on next use), so the directory may be removed or copied. */
  close(): Promise<void>;
}
