import { type ChainLink, parseSlotClaimBytes } from '../../chain/chain-link.js';
import {
  type DecodedRecords,
  lastFramedRecordStart,
  RECORD_HEADER_BYTES,
  RECORD_MAGIC,
  recordFrameHolds,
  type SegmentRecord,
  wholeRecordEnd,
} from './segment-records.js';

// The bytes decoding skipped as not intact, record by record. A skipped run may hold several damaged records, and
// the selection (see `selectRecords`) settles them one at a time: a repair of the first one leaves the point it looks
// for damage past at that record's end, inside the run. Every check here therefore looks at what of a run lies past
// that point, never at whole runs only: the records after a repaired one are still the log's to account for.

/** A run of bytes `[offset, end)` in the segment. */
export interface ByteRun {
  readonly offset: number;
  readonly end: number;
}

/**
 * What of the runs of `decoded` skipped as not intact lies past `from` (where the last record accepted or repaired
 * ends: a run may begin before it) and ends by `to`, in file order.
 */
export function skippedWithin(decoded: DecodedRecords, from: number, to: number): ByteRun[] {
  const runs: ByteRun[] = [];
  for (const { offset, end } of decoded.skipped) {
    if (end > from && end <= to) runs.push({ offset: Math.max(offset, from), end });
  }
  return runs;
}

/** A damaged record in bytes skipped as not intact (see `wholeRecordsSkipped`). */
export interface SkippedRecord extends ByteRun {
  /**
   * Set for the last record of bytes that frame nothing from the front, found from their end (see
   * `lastFramedRecordStart`): where its own frame starts. `offset` is then where those bytes start, so the record
   * stands for all of them; its length and checksum prove its header.
   */
  readonly framedFrom?: number;
}

/** The chain link the damaged header of `record` still holds, when it reads (see `damagedRecordLink`). */
export function skippedRecordLink(bytes: Uint8Array, base: number, record: SkippedRecord): ChainLink | undefined {
  return damagedRecordLink(bytes, base, { offset: record.framedFrom ?? record.offset, end: record.end });
}

/**
 * The whole records (see `wholeRecordEnd`) in the runs of `decoded` skipped as not intact within `[from, to)` (see
 * `skippedWithin`): what damage left of records committed whole. A run may hold more than one, and a crash's
 * cut-short write before them: walked record by record, by the lengths their headers give, on from the next magic
 * past what is no whole record; where no magic follows, the run's last record found from its end stands for the
 * bytes from there (see `SkippedRecord.framedFrom`).
 */
export function* wholeRecordsSkipped(
  decoded: DecodedRecords,
  range: { readonly bytes: Uint8Array; readonly base: number; readonly from: number; readonly to: number },
): Generator<SkippedRecord> {
  const { bytes, base, from, to } = range;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const skipped of skippedWithin(decoded, from, to)) {
    const limit = skipped.end - base;
    for (let at = skipped.offset - base; at + RECORD_HEADER_BYTES <= limit; ) {
      const end = wholeRecordEnd(buffer, at, limit);
      // One a power loss left ending in zeros was never durable, so never acknowledged (as `damagedLastRecords`).
      if (end !== undefined && buffer[end - 1] !== 0) {
        yield { offset: base + at, end: base + end };
        at = end;
        continue;
      }
      const magic = buffer.indexOf(RECORD_MAGIC, at + 1);
      if (magic === -1 || magic >= limit) {
        const last = lastFramedRecordStart(buffer, at + 1, limit);
        if (last !== undefined) yield { offset: base + at, end: skipped.end, framedFrom: base + last };
        break;
      }
      at = magic;
    }
  }
}

/**
 * The chain link in the header of the damaged record that is `run` (`bytes` start at file offset `base`), when the
 * run is one whole record (see `wholeRecordEnd`: its frame may be what changed) whose header line still reads as a
 * link: what the damage left of what it committed.
 */
export function damagedRecordLink(bytes: Uint8Array, base: number, run: ByteRun): ChainLink | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = run.offset - base;
  const end = run.end - base;
  if (at < 0 || end > buffer.length || wholeRecordEnd(buffer, at, end) !== end) return undefined;
  const parts = parseSlotClaimBytes(buffer.subarray(at + RECORD_HEADER_BYTES, end));
  return parts.eventBytes === undefined ? undefined : parts.link;
}

/**
 * Whether `run`, skipped before `accepted` (the records the log took that lie after it), is their damaged earlier
 * copies: whole records (see `wholeRecordEnd`), each no longer intact, whose headers name the index and hash of a
 * record accepted after them, however many. It is last-record damage a repair appended the records again for;
 * nothing was lost, so nothing is warned about.
 */
export function isRepairedRun(bytes: Uint8Array, base: number, run: ByteRun, accepted: readonly ChainLink[]): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const limit = run.end - base;
  const isAccepted = (link: ChainLink | undefined): boolean =>
    link !== undefined && accepted.some(({ index, hash }) => index === link.index && hash === link.hash);
  for (let at = run.offset - base; at !== limit; ) {
    const end = at < 0 ? undefined : wholeRecordEnd(buffer, at, limit);
    if (end === undefined) {
      // Records that frame nothing from the front, before a last one found from the end that a repair appended again
      // (see `lastRecordDamage`): the log holds every index up to it, so nothing in them was lost.
      const last = at < 0 ? undefined : lastFramedRecordStart(buffer, at, limit);
      return (
        last !== undefined &&
        !recordFrameHolds(buffer, last, limit) &&
        isAccepted(damagedRecordLink(bytes, base, { offset: base + last, end: run.end }))
      );
    }
    if (recordFrameHolds(buffer, at, end)) return false;
    if (!isAccepted(damagedRecordLink(bytes, base, { offset: base + at, end: base + end }))) return false;
    at = end;
  }
  return true;
}

/**
 * The parts of the runs of `decoded` skipped as not intact that are worth a warning: before `stop` (where reading
 * stopped), and neither restored by repair records (`repaired`: whole runs, or records within one) nor damaged last
 * records appended again (`isRepairedRun`, against the records `accepted` after them).
 */
export function unexplainedRuns(
  decoded: DecodedRecords,
  options: {
    bytes: Uint8Array;
    base: number;
    stop: number;
    repaired: readonly ByteRun[];
    accepted: readonly SegmentRecord[];
  },
): ByteRun[] {
  const { bytes, base, stop, repaired, accepted } = options;
  return decoded.skipped
    .flatMap((run) => uncovered({ offset: run.offset, end: Math.min(run.end, stop) }, repaired))
    .filter((part) => {
      const after = accepted.filter((record) => record.offset >= part.end).map(({ link }) => link);
      return !isRepairedRun(bytes, base, part, after);
    });
}

/** The parts of `run` that none of `covered` (runs within it or apart from it) covers, in file order. */
function uncovered(run: ByteRun, covered: readonly ByteRun[]): ByteRun[] {
  const parts: ByteRun[] = [];
  let at = run.offset;
  const within = covered.filter(({ offset, end }) => offset < run.end && end > run.offset);
  for (const { offset, end } of [...within].sort((a, b) => a.offset - b.offset)) {
    if (offset > at) parts.push({ offset: at, end: offset });
    at = Math.max(at, end);
  }
  if (at < run.end) parts.push({ offset: at, end: run.end });
  return parts;
}
