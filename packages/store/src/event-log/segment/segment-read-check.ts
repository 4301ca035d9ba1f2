import { chainHeaderStartBefore } from '../../chain/chain-link.js';
import type { AppendFile } from '../../file-store.js';
import { MAX_RECORD_HEAD } from './segment-index.js';
import type { SegmentPositions } from './segment-positions.js';
import { decodeRecords, RECORD_HEADER_BYTES, RECORD_MAGIC, type SegmentRecord } from './segment-records.js';

// A read of an event a segment index covers checks its record, not only its bytes: an open that adopts an index
// does not scan the records it covers (that is what makes it fast), so damage there is first met by a read. The
// record's header is at most `MAX_RECORD_HEAD` bytes before the event's, so the check reads that much more at most
// (the bytes after the event before it, usually a few hundred) and needs nothing more in the index.

/** What a read of event `index`'s record found: the intact record, or the bytes read where it should be. */
export interface RecordRead {
  readonly record: SegmentRecord | undefined;
  readonly bytes: Uint8Array;
  /** The file offset of `bytes[0]`. */
  readonly base: number;
}

/**
 * Reads event `index`'s record from `file` where `positions` put its bytes, and keeps it only when it is intact
 * (its checksum holds) and is that event's: it ends where the event's bytes end, for `index`, of `id`.
 */
export async function readRecordOf(
  file: AppendFile,
  positions: SegmentPositions,
  event: { readonly index: number; readonly id: string },
): Promise<RecordRead> {
  const { index, id } = event;
  const offset = positions.offsetOf(index);
  const end = offset + positions.lengthOf(index);
  let base = Math.max(0, offset - MAX_RECORD_HEAD);
  // The record starts after the event before it, when that one lies before in the segment (a repaired one lies
  // after; one held in memory, at offset -1, nowhere).
  const previous = index > 0 ? positions.offsetOf(index - 1) : -1;
  const previousEnd = previous + (index > 0 ? positions.lengthOf(index - 1) : 0);
  if (previous >= 0 && previousEnd <= offset && previousEnd > base) base = previousEnd;
  const bytes = await file.readFrom(base, end - base);
  const record = decodeRecords(bytes, base).records.find(
    (found) => found.jsonOffset === offset && found.end === end && found.link.index === index && found.link.id === id,
  );
  return { record, bytes, base };
}

/**
 * Where the record that should hold event `index`'s bytes starts, in what `read` found: by its chain header line,
 * which ends just before the bytes, when that still reads, else by its magic (the last before the bytes);
 * `read.base` when neither is left. The header comes first because a damaged magic leaves the last magic before
 * the bytes an earlier record's (what `read` holds before the record when the event before it was moved by a
 * repair or is held in memory): the damage would be placed over that intact record, and the hash its damaged
 * header still names, which a damaged last record is recovered by, would not be found.
 */
export function damagedRecordStart(read: RecordRead, jsonOffset: number): number {
  const buffer = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
  const json = jsonOffset - read.base;
  const magic = buffer.lastIndexOf(RECORD_MAGIC, Math.max(0, json - RECORD_MAGIC.length));
  const header = chainHeaderStartBefore(buffer, json);
  // The header's record starts a record header before it; a magic after that is inside this record's frame.
  if (header !== undefined && header - RECORD_HEADER_BYTES >= 0 && header - RECORD_HEADER_BYTES > magic) {
    return read.base + header - RECORD_HEADER_BYTES;
  }
  return magic === -1 ? read.base : read.base + magic;
}
