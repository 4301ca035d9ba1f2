import { StoreError } from '../../errors.js';
import type { FileStore } from '../../file-store.js';
import { crc32 } from '../../internal/crc32.js';
import { isFileNotFound } from '../is-file-not-found.js';
import { checkSample } from '../name-index.js';

/**
 * The segment index of a segment log: `<dir>/.slots/segment-index`, what an open learned from the segment's
 * first `count` events, so the next open reads only the records after them. Derived and never trusted over the
 * segment: it is used only when the segment still holds, at `last.offset`, an intact record with the checksum
 * `last.crc` for event `count - 1` ending at `size` (see `SegmentLog.open`), and ignored (with a warning) when
 * anything in it looks wrong. No `.json` suffix, so nothing takes it for a slot claim.
 *
 * Format: line 1 `{"format":"x-segment-index","v":1,"count":N,"size":S,"last":{"offset":O,"crc":C},"crc":B}` (B:
 * the CRC-32 of everything after that line, so damage to the index itself is caught before its contents), line 2
 * the events' (offset, length) pairs in the segment as little-endian float64s, base64; then N lines, one event
 * file name each (as the name index: they give the paths and the id fingerprints without a string per event).
 * The header may also hold `"files":{"scope":K,"count":F}`: event files 0..F-1 were seen whole (or written) while
 * the segment's `AppendFile.scope` was K (this boot, this inode), so an open in the same scope skips checking them.
 * The header may also hold `"listing":V`: the log's directory had the listing version V (see
 * `FileStore.listingVersion`) at the close that wrote the index, and a listing then found no event file the segment
 * does not hold, so an open that finds the same version skips looking for them (see foreign-event-files.ts).
 * Readers that do not know it ignore it.
 */

/** Logs shorter than this are read whole fast enough (~2 MB): no index is written for them. */
export const SEGMENT_INDEX_MIN_COUNT = 1024;
/** A writer rewrites the index every this many events, so a crash leaves at most this many to scan. */
export const SEGMENT_INDEX_EVERY = 4096;

const FORMAT = 'x-segment-index';
/** Bound on a record's bytes before its event's (the 12-byte frame header and the chain header line). */
export const MAX_RECORD_HEAD = 4096;
const VERSION = 1;

/** The record of the index's last event: where its header is, and its CRC-32. */
export interface CoveredRecord {
  readonly offset: number;
  readonly crc: number;
}

/** Event files 0..count-1 seen whole within `scope` (see `AppendFile.scope`). */
export interface CheckedFiles {
  readonly scope: string;
  readonly count: number;
}

/** What an index says (see the format above): a prefix of `size` bytes holding events 0..count-1. */
export interface SegmentIndexSnapshot {
  readonly count: number;
  readonly size: number;
  readonly last: CoveredRecord;
  readonly files?: CheckedFiles | undefined;
  /** The directory's listing version when a listing found no event file the segment does not hold. */
  readonly listing?: string | undefined;
  /** (offset, length) of each event's bytes, flattened. */
  readonly pairs: Float64Array;
  /** The event file names of 0..count-1, each followed by a newline. */
  readonly namesText: string;
}

export type SegmentIndexRead =
  | {
      readonly kind: 'parsed';
      readonly count: number;
      readonly size: number;
      readonly last: CoveredRecord;
      readonly files: CheckedFiles | undefined;
      readonly listing: string | undefined;
      readonly pairs: Float64Array;
      /** The file's text; name i is `text[starts[i], starts[i + 1] - 1)` (see `PathList.adopt`). */
      readonly text: string;
      readonly starts: Int32Array;
    }
  | { readonly kind: 'absent' }
  | { readonly kind: 'invalid'; readonly problem: string };

export function segmentIndexPath(dir: string): string {
  return `${dir}/.slots/segment-index`;
}

export function formatSegmentIndex(snapshot: SegmentIndexSnapshot): string {
  const { count, size, last, files, listing, pairs, namesText } = snapshot;
  const bytes = Buffer.from(pairs.buffer, pairs.byteOffset, pairs.byteLength);
  const body = `${littleEndian(bytes).toString('base64')}\n${namesText}`;
  const header = JSON.stringify({ format: FORMAT, v: VERSION, count, size, last, files, listing, crc: crc32(body) });
  return `${header}\n${body}`;
}

/** Reads the index of `dir` (one `store.read`); a missing file is `absent`, a malformed one `invalid`. */
export async function readSegmentIndex(store: FileStore, dir: string): Promise<SegmentIndexRead> {
  let text: string;
  try {
    text = await store.read(segmentIndexPath(dir));
  } catch (error) {
    if (isFileNotFound(error)) return { kind: 'absent' };
    if (StoreError.isInstance(error)) return { kind: 'invalid', problem: error.message };
    throw error;
  }
  return parseSegmentIndex(text);
}

/** Parses and checks an index's text: its header, that its pairs are in order and end at `size`, its names. */
export function parseSegmentIndex(text: string): SegmentIndexRead {
  const headerEnd = text.indexOf('\n');
  if (headerEnd === -1) return { kind: 'invalid', problem: 'no header line' };
  let header: unknown;
  try {
    header = JSON.parse(text.slice(0, headerEnd));
  } catch {
    return { kind: 'invalid', problem: 'the header is not JSON' };
  }
  if (!isHeader(header)) return { kind: 'invalid', problem: `not an ${FORMAT} v${VERSION} header` };
  const { count, size, last } = header;
  // The file's own damage (a bit flipped, a write a power loss cut short) is caught here, before its contents.
  if (crc32(text.slice(headerEnd + 1)) !== header.crc) {
    return { kind: 'invalid', problem: 'its checksum does not match its contents (damaged or cut short)' };
  }
  const pairsEnd = text.indexOf('\n', headerEnd + 1);
  if (pairsEnd === -1) return { kind: 'invalid', problem: 'truncated (no positions line)' };
  const bytes = littleEndian(Buffer.from(text.slice(headerEnd + 1, pairsEnd), 'base64'));
  if (bytes.length !== count * 16) {
    return {
      kind: 'invalid',
      problem: `the header says ${count} events, the positions line holds ${bytes.length / 16}`,
    };
  }
  // A copy: the decoded buffer may not be aligned for a Float64Array.
  const pairs = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const problem = checkPairs(pairs, count, size, last);
  if (problem !== undefined) return { kind: 'invalid', problem };
  if (!text.endsWith('\n')) return { kind: 'invalid', problem: 'truncated (no final newline)' };
  if (count > text.length) return { kind: 'invalid', problem: `the header says ${count} names, the file is shorter` };
  const starts = new Int32Array(count + 1);
  let start = pairsEnd + 1;
  for (let index = 0; index < count; index++) {
    starts[index] = start;
    const end = text.indexOf('\n', start);
    if (end === -1) return { kind: 'invalid', problem: `the header says ${count} names, the file has ${index}` };
    start = end + 1;
  }
  starts[count] = start;
  if (start !== text.length) return { kind: 'invalid', problem: `the file has more than the ${count} names it says` };
  const nameProblem = checkSample(text, starts, count);
  if (nameProblem !== undefined) return { kind: 'invalid', problem: nameProblem.replace(/^line \d+ /, '') };
  const files = isCheckedFiles(header.files) ? header.files : undefined;
  const listing = typeof header.listing === 'string' && header.listing.length > 0 ? header.listing : undefined;
  return { kind: 'parsed', count, size, last, files, listing, pairs, text, starts };
}

/**
 * Each event's bytes within the segment, the last ending at `size`, after its record's header. Not in order: a
 * repair record restores an event after the damaged one, and those after it (see segment-damage.ts).
 */
function checkPairs(pairs: Float64Array, count: number, size: number, last: CoveredRecord): string | undefined {
  for (let index = 0; index < count; index++) {
    const offset = pairs[index * 2]!;
    const length = pairs[index * 2 + 1]!;
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      return `the position of event ${index} is not a place in the segment`;
    }
  }
  const end = pairs[(count - 1) * 2]! + pairs[(count - 1) * 2 + 1]!;
  if (end !== size) return `its events end at byte ${end}, its header says ${size}`;
  const lastEvent = pairs[(count - 1) * 2]!;
  // A record's header line is a few hundred bytes: a farther offset would make an open read far more than it.
  if (!(last.offset < lastEvent && lastEvent - last.offset <= MAX_RECORD_HEAD)) {
    return `its last record's offset (${last.offset}) is not just before its last event's (${lastEvent})`;
  }
  return undefined;
}

/** The bytes as little-endian float64s (a no-op on the little-endian machines Node runs on, swapped elsewhere). */
function littleEndian(bytes: Buffer): Buffer {
  return IS_LITTLE_ENDIAN || bytes.length % 8 !== 0 ? bytes : Buffer.from(bytes).swap64();
}

const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A `files` field that is not well formed is ignored: the open then checks every event file, as without one. */
function isCheckedFiles(value: unknown): value is CheckedFiles {
  if (typeof value !== 'object' || value === null) return false;
  const files = value as Record<string, unknown>;
  return typeof files.scope === 'string' && files.scope.length > 0 && isCount(files.count);
}

function isHeader(
  value: unknown,
): value is { count: number; size: number; last: CoveredRecord; files?: unknown; listing?: unknown; crc: number } {
  if (typeof value !== 'object' || value === null) return false;
  const header = value as Record<string, unknown>;
  const last = header.last as Record<string, unknown> | null | undefined;
  return (
    header.format === FORMAT &&
    header.v === VERSION &&
    isCount(header.count) &&
    header.count > 0 &&
    isCount(header.size) &&
    isCount(header.crc) &&
    typeof last === 'object' &&
    last !== null &&
    isCount(last.offset) &&
    isCount(last.crc) &&
    last.crc <= 0xffffffff
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
