import {
  type ByteRun,
  damageBefore,
  damagedEarlierRecord,
  damagedUnconfirmedRecords,
  damageOfRecords,
  damageProvenAfter,
  findRepairRecords,
  type SegmentDamage,
} from './segment-damage.js';
import { type DecodedRecords, damagedLastRecords, SegmentChain, type SegmentRecord } from './segment-records.js';
import { unexplainedRuns } from './segment-skipped-runs.js';

/** Which of a run of decoded records are the log's events (see `selectRecords`). */
export interface RecordSelection {
  /** The records that hold the log's next events, in index order. */
  readonly accepted: SegmentRecord[];
  /** Damage that lost events no repair records restore: reading stopped there. */
  readonly damage?: SegmentDamage;
  /** Where reading stopped: the damage, or the end of what was decoded. */
  readonly stop: number;
  /** Runs skipped as not intact that are worth a warning (see `unexplainedRuns`). */
  readonly unexplained: ByteRun[];
}

/**
 * The records among `decoded` (`bytes` from file offset `base`) that hold the log's events from index `next` on
 * (after the event hashed `prev`; `known` says which ids the log already holds): those `SegmentChain` accepts, and,
 * where damage took committed records (see `damageBefore`), the repair records appended later that restore them
 * (see `findRepairRecords`), taken in their place. Damage nothing restores stops the selection there: reading on
 * would drop the events after the damage, and the next append would take their indices. Every reader of a segment
 * (the log, `verifyChain`) selects with this, so all agree on the log.
 */
export function selectRecords(
  decoded: DecodedRecords,
  options: { bytes: Uint8Array; base: number; next: number; prev: string | null; known: (id: string) => boolean },
): RecordSelection {
  const { bytes, base, known } = options;
  const ids = new Set<string>();
  const isKnown = (id: string): boolean => ids.has(id) || known(id);
  const chain = new SegmentChain({ next: options.next, prev: options.prev, known: isKnown });
  const accepted: SegmentRecord[] = [];
  /** The hashes of the intact records seen, where the last accepted one ends, and runs repair records restored. */
  const seen = new Set<string>();
  let chainedEnd = 0;
  const repaired: ByteRun[] = [];
  const take = (record: SegmentRecord): void => {
    seen.add(record.link.hash);
    ids.add(record.link.id);
    chainedEnd = record.end;
    accepted.push(record);
  };
  /**
   * Takes `repair`, the records appended again for the damaged `run`: the chain then stands after `run`, not after
   * the repair records (at the segment's end), so damage between the two is still seen as the log's. `run` may be
   * one record of a longer skipped run: the checks look past `chainedEnd` within runs (see `skippedWithin`), so the
   * damaged records after it in that run are still the log's too.
   */
  const takeRepair = (repair: readonly SegmentRecord[], run: ByteRun): void => {
    for (const found of repair) if (chain.accept(found)) take(found);
    chainedEnd = run.end;
    repaired.push(run);
  };
  /** Whether `repair` restores events of ids all new to the log, each once. */
  const newIds = (repair: readonly SegmentRecord[]): boolean => {
    const repairIds = new Set(repair.map(({ link }) => link.id));
    return repairIds.size === repair.length && ![...repairIds].some(isKnown);
  };
  /** Where each hash is first among the intact records decoded (see `damageProvenAfter`): mapped when first asked. */
  let hashAt: Map<string, number> | undefined;
  const firstAt = (hash: string): number | undefined => {
    if (hashAt === undefined) {
      hashAt = new Map();
      for (const [at, { link }] of decoded.records.entries()) if (!hashAt.has(link.hash)) hashAt.set(link.hash, at);
    }
    return hashAt.get(hash);
  };
  /** Whether a record after the one at `position` chains to it: a writer took it as the log's (see `selectRecords`). */
  const confirmed = (position: number): boolean => {
    const { hash } = decoded.records[position]!.link;
    return decoded.records.some(({ link }, at) => at > position && link.prev === hash);
  };
  let damage: SegmentDamage | undefined;
  for (const [position, record] of decoded.records.entries()) {
    const earlier = damagedEarlierRecord(record, decoded, {
      bytes,
      base,
      next: chain.next,
      prev: chain.prev,
      chainedEnd,
    });
    if (earlier !== undefined) {
      // Restored only by repair records that hash as the damaged record's header says (see `findRepairRecords`):
      // `record` among them, where it is the first (the damage took a later index too, so it is no lost race).
      const need = { next: chain.next, prev: chain.prev };
      const until = { ...earlier.link, index: earlier.link.index + 1, prev: earlier.link.hash };
      const repair = findRepairRecords(decoded.records, position, { ...need, until });
      if (repair === undefined || repair.some(({ link }) => isKnown(link.id))) {
        damage = {
          run: earlier.run,
          ...need,
          last: earlier.link.index,
          nextIntact: undefined,
          damagedLink: earlier.link,
        };
        break;
      }
      takeRepair(repair, earlier.run);
    }
    const proven = damageProvenAfter(position, decoded, { next: chain.next, chainedEnd, firstAt });
    if (proven !== undefined) {
      const need = { next: chain.next, prev: chain.prev, until: decoded.records[proven.proof]!.link };
      const repair = findRepairRecords(decoded.records, proven.proof + 1, need);
      if (repair === undefined || !newIds(repair)) {
        const last = need.until.index - 1;
        damage = { run: proven.run, ...need, last, nextIntact: need.until, damagedLink: undefined };
        break;
      }
      takeRepair(repair, proven.run);
    }
    // Checked first: `confirmed` looks at every later record, and skipped runs are rare.
    const unconfirmed =
      decoded.skipped.length > 0 && record.link.index === chain.next
        ? damagedUnconfirmedRecords(decoded, {
            bytes,
            base,
            next: chain.next,
            prev: chain.prev,
            chainedEnd,
            to: record.offset,
            except: record.link.hash,
          })
        : undefined;
    if (unconfirmed !== undefined && !confirmed(position)) {
      damage = damageOfRecords(bytes, base, unconfirmed, { next: chain.next, prev: chain.prev });
      break;
    }
    if (chain.accept(record)) {
      take(record);
      continue;
    }
    const run = damageBefore(record, chain.next, decoded, { seen, chainedEnd });
    if (run !== undefined) {
      const need = { next: chain.next, prev: chain.prev, until: record.link };
      const repair = findRepairRecords(decoded.records, position + 1, need);
      if (repair === undefined || !newIds(repair)) {
        damage = { run, ...need, last: record.link.index - 1, nextIntact: record.link, damagedLink: undefined };
        break;
      }
      // Each for the next index, chained to the one before (see `findRepairRecords`), of a new id: all accepted.
      takeRepair(repair, run);
      if (chain.accept(record)) {
        take(record);
        continue;
      }
    }
    seen.add(record.link.hash);
  }
  // Damage after the last record taken, that the records after it (none taken) do not explain: as damaged last
  // records (see `damagedLastRecords`), it lost the events committed from the next index on; whole records damaged
  // after the last intact one are part of it (each took an index too: see `damageOfRecords`).
  const trailing =
    damage === undefined
      ? damagedUnconfirmedRecords(decoded, {
          bytes,
          base,
          next: chain.next,
          prev: chain.prev,
          chainedEnd,
          to: decoded.end,
        })
      : undefined;
  if (trailing !== undefined) {
    const after = damagedLastRecords(bytes, base, decoded.end) ?? [];
    damage = damageOfRecords(bytes, base, [...trailing, ...after], { next: chain.next, prev: chain.prev });
  }
  const stop = damage?.run.offset ?? decoded.end;
  const unexplained = unexplainedRuns(decoded, { bytes, base, stop, repaired, accepted });
  return damage === undefined ? { accepted, stop, unexplained } : { accepted, damage, stop, unexplained };
}
