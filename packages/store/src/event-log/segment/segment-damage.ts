import { type ChainLink, computeChainHash } from '../../chain/chain-link.js';
import {
  type DecodedRecords,
  damagedLastRecords,
  lastFramedRecordStart,
  type SegmentRecord,
} from './segment-records.js';
import {
  type ByteRun,
  damagedRecordLink,
  type SkippedRecord,
  skippedRecordLink,
  skippedWithin,
  wholeRecordsSkipped,
} from './segment-skipped-runs.js';

export type { ByteRun } from './segment-skipped-runs.js';

// Damage to committed records (a flipped byte, not what a crash leaves) and the records that repair it. A repair
// appends the lost events again, as records with their original links (same index, prev and hash: the bytes are
// the same), after everything else: appends are the only writes the segment's writers share, so a repair is as safe
// among many writers as an append. Every reader applies the rule below to the same bytes, so all agree on the log.

/** Events a damaged segment lost, and what proves a copy of them (see `recoverFromEventFiles`). */
export interface SegmentDamage {
  /** The damaged bytes. */
  readonly run: ByteRun;
  /** The first index the damage took, and the chain hash of the event before it (null at index 0). */
  readonly next: number;
  readonly prev: string | null;
  /**
   * The last index the damage took: the one before `nextIntact`, else one index per whole record the damage left
   * (see `damageOfRecords`), however many that is.
   */
  readonly last: number;
  /** The first intact record after the damage; undefined when no intact record of the log follows it. */
  readonly nextIntact: ChainLink | undefined;
  /** The link the header of the damaged record of `last` still holds, when it reads (what its event must hash to). */
  readonly damagedLink: ChainLink | undefined;
}

/**
 * The damage of the whole records `records` (in file order, none intact any more: see `wholeRecordEnd`) that no
 * intact record of the log follows, taken from the log's next index on (`chain`). Records are appended whole, one
 * per event, so each one the damage left took one event: `chain.next` … `chain.next + records.length - 1`, every
 * one acknowledged, however many were damaged before any was read. Only the last one's header can prove them (an
 * intact record after them would otherwise): it must still read, and name that last index. Where the last one was
 * found from the end of bytes that frame nothing before it (see `SkippedRecord.framedFrom`), its header, proven by
 * its checksum, names the last index, which may lie past what the records counted give.
 */
export function damageOfRecords(
  bytes: Uint8Array,
  base: number,
  records: readonly SkippedRecord[],
  chain: { readonly next: number; readonly prev: string | null },
): SegmentDamage {
  const final = records[records.length - 1]!;
  const link = skippedRecordLink(bytes, base, final);
  const counted = chain.next + records.length - 1;
  // Found from the end, its header proven by its checksum, it names the last index taken, where the bytes before it
  // framed fewer records than that.
  const last = final.framedFrom !== undefined && link !== undefined && link.index > counted ? link.index : counted;
  return {
    run: { offset: records[0]!.offset, end: final.end },
    ...chain,
    last,
    nextIntact: undefined,
    damagedLink: link?.index === last ? link : undefined,
  };
}

/**
 * The damage of last records changed after they committed (see `damagedLastRecords`: `bytes` start at file offset
 * `base`, decoding consumed them up to `end`), which would otherwise read as a crash's cut-short tail: the log would
 * lose their events silently, and the next append would take their indices. `chain` is where the log's chain stands.
 * Where the records before the last one frame no record (a length changed, its magic intact), the last one, found
 * from the end (see `lastFramedRecordStart`), still proves them: its header names the last index they took.
 */
export function lastRecordDamage(
  bytes: Uint8Array,
  base: number,
  end: number,
  chain: { readonly next: number; readonly prev: string | null },
): SegmentDamage | undefined {
  const records = damagedLastRecords(bytes, base, end);
  if (records !== undefined) return damageOfRecords(bytes, base, records, chain);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = lastFramedRecordStart(buffer, end - base, buffer.length);
  if (at === undefined) return undefined;
  const final = { offset: base + at, end: base + buffer.length };
  const link = damagedRecordLink(bytes, base, final);
  // A last record for an earlier index is a lost race's: it proves nothing taken before it.
  if (link === undefined || link.index < chain.next) return undefined;
  const run = { offset: end, end: final.end };
  return { run, ...chain, last: link.index, nextIntact: undefined, damagedLink: link };
}

/**
 * The damaged run before `record` when `record` shows that the segment lost events: it is for a later index than
 * `next` (the chain's next), after bytes skipped as not intact (past `chainedEnd`, where the last accepted record
 * ends), and it chains to no record seen (so to one the damage took). A crash only ever cuts a writer's last write
 * short, after which writers append at the index it failed to take; a writer that lost a race writes records for
 * later indices too, but each chained to its own record before. Undefined when `record` is no such sign.
 */
export function damageBefore(
  record: SegmentRecord,
  next: number,
  decoded: DecodedRecords,
  known: { readonly seen: ReadonlySet<string>; readonly chainedEnd: number },
): ByteRun | undefined {
  const { link } = record;
  if (link.index <= next || (link.prev !== null && known.seen.has(link.prev))) return undefined;
  return skippedWithin(decoded, known.chainedEnd, record.offset)[0];
}

/**
 * The damaged run before `record` (for index `next`, the chain's next) when a record after it proves that the run
 * held the event committed at `next`: bytes were skipped as not intact past `chainedEnd` (where the last accepted
 * record ends) and before `record`, and a record for a later index, in the unbroken run of intact records from
 * `record` on, chains to a hash no intact record before it has (`firstAt`: the position of the first record of a hash) — to the event
 * the damage took (repair records for it, appended later, come after). `record` is then
 * another writer's lost race for `next` (see `damagedEarlierRecord`, which reads it from the damaged header when
 * that still reads), and chaining to the same event before it proves nothing. A crash cuts only a writer's last
 * write short: no record chains to what it cut. Undefined when nothing proves it; else the run and the proving
 * record's position in `decoded.records` (`position` is `record`'s).
 */
export function damageProvenAfter(
  position: number,
  decoded: DecodedRecords,
  known: { readonly next: number; readonly chainedEnd: number; firstAt(hash: string): number | undefined },
): { readonly run: ByteRun; readonly proof: number } | undefined {
  const { records } = decoded;
  const record = records[position]!;
  if (record.link.index !== known.next) return undefined;
  const run = skippedWithin(decoded, known.chainedEnd, record.offset)[0];
  if (run === undefined) return undefined;
  // Not past other skipped bytes: damage there is its own (see `damageBefore`).
  for (let at = position + 1; at < records.length && records[at]!.offset === records[at - 1]!.end; at++) {
    const { link } = records[at]!;
    if (link.index > known.next && link.prev !== null && !((known.firstAt(link.prev) ?? at) < at)) {
      return { run, proof: at };
    }
  }
  return undefined;
}

/**
 * The damaged record that took index `next` before `record` did: one whole record (see `wholeRecordsSkipped`: not
 * what a crash leaves), skipped as not intact after `chainedEnd` (where the last accepted record ends) and before
 * `record`, whose header still names index `next` (read past a damaged magic or length where its checksum proves
 * the payload), chained to `prev` (the proven history), with another hash than `record`'s. Records for one index
 * are taken first come, so `record` is then another writer's lost race: taking it would drop the event acknowledged
 * at `next` and put an event never acknowledged there in its place. Or the last record of bytes that frame nothing
 * from the front, found from their end (see `SkippedRecord.framedFrom`), whose header (its checksum proves it) names
 * a later index: its writer saw `next` taken before it, so the damage took `next` up to that index. Undefined
 * otherwise.
 */
export function damagedEarlierRecord(
  record: SegmentRecord,
  decoded: DecodedRecords,
  options: {
    readonly bytes: Uint8Array;
    readonly base: number;
    readonly next: number;
    readonly prev: string | null;
    readonly chainedEnd: number;
  },
): { readonly run: ByteRun; readonly link: ChainLink } | undefined {
  const { bytes, base, next, prev, chainedEnd } = options;
  if (record.link.index !== next || decoded.skipped.length === 0) return undefined;
  for (const damaged of wholeRecordsSkipped(decoded, { bytes, base, from: chainedEnd, to: record.offset })) {
    const link = skippedRecordLink(bytes, base, damaged);
    if (link === undefined) continue;
    const sameIndex = link.index === next && link.prev === prev && link.hash !== record.link.hash;
    // A header its checksum proves (found from the end), for a later index: its writer saw `next` taken before it.
    const laterIndex = damaged.framedFrom !== undefined && link.index > next;
    if (sameIndex || laterIndex) return { run: { offset: damaged.offset, end: damaged.end }, link };
  }
  return undefined;
}

/**
 * The damaged records from the one that held index `next` (after the event hashed `prev`) on, when nothing after
 * them can prove or disprove that: the first whole record (see `wholeRecordsSkipped`) skipped past `chainedEnd`
 * (where the last accepted record ends) and before `to` whose header no longer says what it held, or says `next`
 * after `prev`, or, found from the end (see `SkippedRecord.framedFrom`), a later index, and every whole record
 * skipped after it before `to` (each took the next index: see
 * `damageOfRecords`; left out, repair records appended after them would carry the chain past them, and their events
 * would be lost unseen). A record for `next` that follows them, and that no record chains to, is then another
 * writer's lost race, the writer cut off before it wrote again (see `damagedEarlierRecord` for the one whose header
 * still reads): taking it would drop the events acknowledged from `next` on, as `damagedLastRecords` would with
 * nothing after them. `except` is the hash of the record it would be taken for: its damaged earlier copy, which a
 * repair appended again, lost nothing. Undefined when no such record is there.
 */
export function damagedUnconfirmedRecords(
  decoded: DecodedRecords,
  options: {
    readonly bytes: Uint8Array;
    readonly base: number;
    readonly next: number;
    readonly prev: string | null;
    readonly chainedEnd: number;
    readonly to: number;
    readonly except?: string;
  },
): SkippedRecord[] | undefined {
  const { bytes, base, next, prev, chainedEnd, to, except } = options;
  const records: SkippedRecord[] = [];
  for (const damaged of wholeRecordsSkipped(decoded, { bytes, base, from: chainedEnd, to })) {
    const link = records.length === 0 ? skippedRecordLink(bytes, base, damaged) : undefined;
    if (
      records.length > 0 ||
      link === undefined ||
      (link.index === next && link.prev === prev && link.hash !== except) ||
      (damaged.framedFrom !== undefined && link.index > next)
    ) {
      records.push(damaged);
    }
  }
  return records.length === 0 ? undefined : records;
}

/**
 * The repair records, among `records` from position `from` on (they are appended after the damage), that restore
 * the events `next…until.index - 1`: each for its index, its bytes hashing to its link (recomputed, not trusted
 * from its header), the last one's hash the `prev` of `until` (the intact record after the damage) and the first
 * one's `prev` the hash before the damage (`prev`, null at index 0). Walked back from `until`, so the hash chain
 * alone picks them: a lost race's record for one of those indices has another hash. Undefined when any is missing.
 */
export function findRepairRecords(
  records: readonly SegmentRecord[],
  from: number,
  need: { readonly next: number; readonly prev: string | null; readonly until: ChainLink },
): SegmentRecord[] | undefined {
  const found: SegmentRecord[] = [];
  let hash = need.until.prev;
  for (let index = need.until.index - 1; index >= need.next; index--) {
    if (hash === null) return undefined;
    const wanted = hash;
    const match = records
      .slice(from)
      .find(
        ({ link, json }) =>
          link.index === index && link.hash === wanted && computeChainHash(index, link.prev, json) === wanted,
      );
    if (match === undefined) return undefined;
    found.unshift(match);
    hash = match.link.prev;
  }
  return hash === (need.next === 0 ? null : need.prev) ? found : undefined;
}
