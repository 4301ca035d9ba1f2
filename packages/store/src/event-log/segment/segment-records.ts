import { type ChainLink, parseSlotClaimBytes } from '../../chain/chain-link.js';
import { type ClaimLayout, layoutClaim, writeClaim } from '../../chain/claim-bytes.js';
import { crc32, firstEndWithCrc32 } from '../../internal/crc32.js';
import { isStorableEventId } from '../file-names.js';

// The segment's record framing: `FF 78 53 31` (0xFF never occurs in UTF-8, so never inside a payload), the
// payload's length and its CRC-32 (both u32 little-endian), then the payload: a chained slot claim's text
// (the chain link's header line, then the event file's exact bytes).

/** The magic every record starts with, and the bytes of a record's header (magic, length, checksum). */
export const RECORD_MAGIC = Buffer.from([0xff, 0x78, 0x53, 0x31]);
export const RECORD_HEADER_BYTES = 12;

/** One intact record of a segment: where it lies in the file, its chain link and its event's bytes. */
export interface SegmentRecord {
  /** Offset of the record's header in the file. */
  readonly offset: number;
  /** Offset just past the record. */
  readonly end: number;
  /** The CRC-32 of its payload, from its header. */
  readonly crc: number;
  readonly link: ChainLink;
  /** Offset of the event's bytes in the file, and their length. */
  readonly jsonOffset: number;
  readonly jsonLength: number;
  readonly json: Uint8Array;
}

/** What `decodeRecords` found in a run of bytes. */
export interface DecodedRecords {
  readonly records: SegmentRecord[];
  /** Runs of bytes skipped between intact records (a write cut short by a crash, or damage): `[offset, end)`. */
  readonly skipped: { readonly offset: number; readonly end: number }[];
  /**
   * Offset just past the last intact record. Bytes after it are not consumed: a record still being written by
   * another process, or a tail a crash cut short (skipped once a later record lands after it).
   */
  readonly end: number;
}

/** One event of a batch to encode: the event (its id) and its exact bytes as text (`serializeEvent`). */
export interface RecordInput {
  readonly event: { readonly id: string };
  readonly json: string;
}

/** Where `encodeRecords` put one record in its buffer (offsets into that buffer) and the link it commits. */
export interface EncodedRecord {
  readonly link: ChainLink;
  /** Offset of the record's header, and just past the record. */
  readonly offset: number;
  readonly end: number;
  /** The CRC-32 of its payload. */
  readonly crc: number;
  /** The event's bytes (a view into the batch's buffer). */
  readonly json: Buffer;
}

/**
 * The bytes of the records that commit `events` at indices `start…`, chained from `prev`, written by `writer` (a
 * token of the writing instance, in the header line: two writers appending the same event at the same index write
 * different bytes, so each finds its own record when it reads back), in one buffer: each event is encoded once, in
 * place, and its chain hash and checksum computed over those bytes (see `writeClaim`). The buffer is its own
 * allocation (not a slice of Node's shared pool), as views of it may be held until the event files are written.
 */
export function encodeRecords(
  events: readonly RecordInput[],
  start: number,
  prev: string | null,
  writer: string,
): { readonly bytes: Buffer; readonly records: EncodedRecord[] } {
  const layouts: ClaimLayout[] = [];
  let size = 0;
  for (const [offset, { event, json }] of events.entries()) {
    // The prev of every record but the first is the hash of the one before: measured with a placeholder of its
    // length (the header's size does not depend on the hash), filled in below.
    const layout = layoutClaim(start + offset, event.id, offset === 0 ? prev : HASH_SIZED, json, writer);
    layouts.push(layout);
    size += RECORD_HEADER_BYTES + layout.size;
  }
  const bytes = Buffer.allocUnsafeSlow(size);
  const records: EncodedRecord[] = [];
  let at = 0;
  let previous = prev;
  for (const layout of layouts) {
    const payloadAt = at + RECORD_HEADER_BYTES;
    const link = writeClaim(bytes, payloadAt, { ...layout, prev: previous });
    const end = payloadAt + layout.size;
    RECORD_MAGIC.copy(bytes, at);
    bytes.writeUInt32LE(layout.size, at + 4);
    const crc = crc32(bytes.subarray(payloadAt, end));
    bytes.writeUInt32LE(crc, at + 8);
    records.push({ link, offset: at, end, crc, json: bytes.subarray(end - layout.jsonBytes, end) });
    previous = link.hash;
    at = end;
  }
  return { bytes, records };
}

/** A hash-sized stand-in for a `prev` not known yet when measuring (see `encodeRecords`). */
const HASH_SIZED = '0'.repeat(64);

/**
 * Decodes the records in `bytes`, which start at file offset `base`. A record whose header, length or checksum
 * does not hold is skipped up to the next intact record (found by its magic and checksum); when none follows,
 * decoding stops before it (see `DecodedRecords.end`).
 */
export function decodeRecords(bytes: Uint8Array, base: number): DecodedRecords {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: SegmentRecord[] = [];
  const skipped: { offset: number; end: number }[] = [];
  let at = 0;
  let consumed = 0;
  while (at < buffer.length) {
    const record = recordAt(buffer, at, base);
    if (record !== undefined) {
      if (at > consumed) skipped.push({ offset: base + consumed, end: base + at });
      records.push(record);
      at = record.end - base;
      consumed = at;
      continue;
    }
    const next = buffer.indexOf(RECORD_MAGIC, at + 1);
    if (next === -1) break;
    at = next;
  }
  return { records, skipped, end: base + consumed };
}

/**
 * The records after the last intact record (`bytes` start at file offset `base`; decoding consumed them up to `end`)
 * when those bytes are whole records, one or more, that are no longer intact: records committed and changed since (a
 * flipped byte in a payload, or in the magic or length that frame it: see `wholeRecordEnd`). A write a crash cut
 * short leaves fewer bytes than its header says, and one whose data a power loss lost ends in zeros: for those, and
 * anything else, undefined. Each record's span, in file order; a whole record whose frame holds (not a record of the
 * log) or that ends in zeros (never durable) is not among them, and none left is undefined.
 */
export function damagedLastRecords(
  bytes: Uint8Array,
  base: number,
  end: number,
): { readonly offset: number; readonly end: number }[] | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length === end - base || buffer[buffer.length - 1] === 0) return undefined;
  const records: { offset: number; end: number }[] = [];
  for (let at = end - base; at < buffer.length; ) {
    const recordEnd = wholeRecordEnd(buffer, at, buffer.length);
    if (recordEnd === undefined) return undefined;
    if (buffer[recordEnd - 1] !== 0 && !recordFrameHolds(buffer, at, recordEnd)) {
      records.push({ offset: base + at, end: base + recordEnd });
    }
    at = recordEnd;
  }
  return records.length === 0 ? undefined : records;
}

/**
 * Where the record written whole at `at` (an offset into `buffer`) ends, at most at `limit`, though damage may have
 * changed it since: its magic and length frame it (its payload may be what changed), or the frame is what changed
 * and its payload, by its length or up to `limit` or to a magic before it (or, its magic changed, at any end),
 * still matches the checksum in its header. A crash leaves a prefix of what it wrote, whose length points past it
 * and whose checksum fails: for that, undefined. Callers also refuse a record ending in zeros (a power loss lost its
 * data: never durable, so never acknowledged).
 */
export function wholeRecordEnd(buffer: Buffer, at: number, limit: number): number | undefined {
  const start = at + RECORD_HEADER_BYTES;
  if (at < 0 || start >= limit) return undefined;
  const crc = buffer.readUInt32LE(at + 8);
  let framed: number | undefined;
  const lengthEnd = start + buffer.readUInt32LE(at + 4);
  const magicHolds = buffer.compare(RECORD_MAGIC, 0, RECORD_MAGIC.length, at, at + RECORD_MAGIC.length) === 0;
  if (magicHolds) {
    if (lengthEnd > start && lengthEnd <= limit) framed = lengthEnd;
    if (framed === limit || (framed !== undefined && crc32(buffer.subarray(start, framed)) === crc)) return framed;
  } else if (lengthEnd > start && lengthEnd <= limit && crc32(buffer.subarray(start, lengthEnd)) === crc) {
    // A changed magic with its length intact: the checksum proves where the record ends, though the next record's
    // magic (what the search below ends it at) may be damaged too.
    return lengthEnd;
  }
  // A length changed to a shorter one still frames a record: the checksum then says where it really ends.
  for (let magic = buffer.indexOf(RECORD_MAGIC, start + 1); ; magic = buffer.indexOf(RECORD_MAGIC, magic + 1)) {
    const end = magic === -1 || magic > limit ? limit : magic;
    if (end !== framed && crc32(buffer.subarray(start, end)) === crc) return end;
    if (end === limit) break;
  }
  // A changed magic with its length changed too, before a record whose magic changed as well (or none): only the
  // checksum still says where the payload ends. A crash's prefix keeps the magic it wrote, so this is no torn write,
  // and a torn write is never looked into this way (its checksum could match a prefix of it by chance).
  return magicHolds ? framed : firstEndWithCrc32(buffer, { start, limit }, crc);
}

/**
 * Where the record that ends `buffer[from, limit)` starts, found from its end: the first `at` whose length and
 * checksum frame a payload up to `limit` exactly (its magic may have changed). For the last record of damaged bytes
 * nothing before it frames; a crash's cut-short write ends mid-record, so no frame ends where it does. A last byte
 * of zero (a power loss's) frames nothing. Undefined when none does.
 */
export function lastFramedRecordStart(buffer: Buffer, from: number, limit: number): number | undefined {
  if (limit === 0 || buffer[limit - 1] === 0) return undefined;
  for (let at = Math.max(from, 0); at + RECORD_HEADER_BYTES < limit; at++) {
    const start = at + RECORD_HEADER_BYTES;
    if (start + buffer.readUInt32LE(at + 4) !== limit) continue;
    if (crc32(buffer.subarray(start, limit)) === buffer.readUInt32LE(at + 8)) return at;
  }
  return undefined;
}

/** Whether the record `[at, end)` of `buffer` is framed as written: its magic, its length and its checksum hold. */
export function recordFrameHolds(buffer: Buffer, at: number, end: number): boolean {
  const start = at + RECORD_HEADER_BYTES;
  return (
    start <= end &&
    buffer.compare(RECORD_MAGIC, 0, RECORD_MAGIC.length, at, at + RECORD_MAGIC.length) === 0 &&
    start + buffer.readUInt32LE(at + 4) === end &&
    crc32(buffer.subarray(start, end)) === buffer.readUInt32LE(at + 8)
  );
}

function recordAt(buffer: Buffer, at: number, base: number): SegmentRecord | undefined {
  if (at + RECORD_HEADER_BYTES > buffer.length || buffer.compare(RECORD_MAGIC, 0, 4, at, at + 4) !== 0)
    return undefined;
  const length = buffer.readUInt32LE(at + 4);
  const start = at + RECORD_HEADER_BYTES;
  if (start + length > buffer.length) return undefined;
  const payload = buffer.subarray(start, start + length);
  const crc = buffer.readUInt32LE(at + 8);
  if (crc32(payload) !== crc) return undefined;
  const parts = parseSlotClaimBytes(payload);
  if (parts.eventBytes === undefined || parts.link === undefined || !isStorableEventId(parts.link.id)) return undefined;
  const jsonOffset = start + (payload.length - parts.eventBytes.length);
  return {
    offset: base + at,
    end: base + start + length,
    crc,
    link: parts.link,
    jsonOffset: base + jsonOffset,
    jsonLength: parts.eventBytes.length,
    json: parts.eventBytes,
  };
}

/**
 * Which records hold the log's events: in file order, the first record for the next index that chains to the
 * event before it (`prev`) and whose id is new. Anything else is a writer's lost race (it wrote for an index
 * another writer's record took first; it appends again after learning it) and is not part of the log. Every
 * reader applies the same rule to the same bytes, so all agree on the log.
 */
export class SegmentChain {
  #next: number;
  #prev: string | null;
  readonly #known: (id: string) => boolean;

  constructor(options: { next: number; prev: string | null; known: (id: string) => boolean }) {
    this.#next = options.next;
    this.#prev = options.prev;
    this.#known = options.known;
  }

  get next(): number {
    return this.#next;
  }

  /** The chain hash of the event before `next` (null at index 0). */
  get prev(): string | null {
    return this.#next === 0 ? null : this.#prev;
  }

  /** Whether `record` is the log's next event; if so, the chain moves past it. */
  accept(record: SegmentRecord): boolean {
    const { link } = record;
    if (link.index !== this.#next || link.prev !== (this.#next === 0 ? null : this.#prev)) return false;
    if (this.#known(link.id)) return false;
    this.#next++;
    this.#prev = link.hash;
    return true;
  }
}

/** Where a log keeps its segment: in `.slots/`, which the reference ignores. */
export function segmentPath(dir: string): string {
  return `${dir}/.slots/segment`;
}
