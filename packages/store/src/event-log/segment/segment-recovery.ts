import { type ChainLink, computeChainHash } from '../../chain/chain-link.js';
import { readBytes } from '../../chain/read-bytes.js';
import { CorruptEventError } from '../../errors/corrupt-event-error.js';
import { DamagedSegmentError } from '../../errors/damaged-segment-error.js';
import { SegmentInvariantError } from '../../errors/segment-invariant-error.js';
import { eventIdOfPath, parseEventFileIndex } from '../file-names.js';
import type { LogCore } from '../log-core.js';
import { parseStoredEvent } from '../parse-stored-event.js';
import type { SegmentDamage } from './segment-damage.js';
import { encodeRecords, segmentPath } from './segment-records.js';

/** An event recovered from its event file: its exact text and the link it had in the segment. */
export interface RecoveredEvent {
  readonly event: { readonly id: string };
  readonly json: string;
  readonly link: ChainLink;
}

/** The indices `damage` took: `next` … `last`, as many as it took (see `SegmentDamage.last`). */
export function missingIndices(damage: SegmentDamage): number[] {
  return Array.from({ length: damage.last - damage.next + 1 }, (_, offset) => damage.next + offset);
}

/**
 * Looks for the lost events in the reference's event files (`<dir>/event-{index}-{id}.json`, derived from the
 * segment) and takes them only where the hash chain proves them the events the segment committed: each file's
 * link hash (index, the hash before it, its exact bytes) chained from the hash before the damage must end at the
 * `prev` of the intact record after it, or, with none after it, equal the hash the header of the damaged record of
 * the last index still names (`damagedLink`; a header that no longer reads proves nothing: refused). A file changed
 * since, or one for the wrong id, does not hash to it. Resolves with the events, or with the indices that could not
 * be recovered.
 */
export async function recoverFromEventFiles(
  core: LogCore,
  damage: SegmentDamage,
): Promise<{ recovered: RecoveredEvent[] } | { unrecovered: number[] }> {
  const indices = missingIndices(damage);
  // What the last lost event must hash to: the link after the damage names it, or the damaged record's own header.
  const { nextIntact, damagedLink } = damage;
  const targetHash =
    nextIntact !== undefined ? nextIntact.prev : damagedLink?.index === damage.last ? damagedLink.hash : undefined;
  if (targetHash === undefined || targetHash === null) return { unrecovered: indices };
  const candidates = await readCandidates(core, indices);
  const without = indices.filter((index) => (candidates.get(index) ?? []).length === 0);
  if (without.length > 0) return { unrecovered: without };
  const last = indices[indices.length - 1]!;
  const chosen: RecoveredEvent[] = [];
  // Depth first over the files found for each index (one each, but for strays): the chain is the proof.
  const search = (index: number, prev: string | null): boolean => {
    for (const { id, json } of candidates.get(index)!) {
      if (chosen.some((event) => event.event.id === id)) continue;
      const hash = computeChainHash(index, prev, json);
      const link: ChainLink = { index, id, prev, hash };
      if (index === last) {
        const idHolds = damage.nextIntact !== undefined || id === damage.damagedLink?.id;
        if (hash !== targetHash || !idHolds) continue;
        chosen.push({ event: { id }, json, link });
        return true;
      }
      chosen.push({ event: { id }, json, link });
      if (search(index + 1, hash)) return true;
      chosen.pop();
    }
    return false;
  };
  return search(damage.next, damage.next === 0 ? null : damage.prev) ? { recovered: chosen } : { unrecovered: indices };
}

/** The event files of `indices` that hold a valid event of the id their name says, not held at another index, by index. */
async function readCandidates(
  core: LogCore,
  indices: readonly number[],
): Promise<Map<number, { id: string; json: string }[]>> {
  const wanted = new Set(indices);
  const paths = (await core.store.list(core.dir)).filter(
    (path) => path.startsWith(`${core.dir}/`) && wanted.has(parseEventFileIndex(path)) && !path.includes('/.slots/'),
  );
  const found = await readBytes(core.store, paths);
  const candidates = new Map<number, { id: string; json: string }[]>();
  paths.forEach((path, position) => {
    const bytes = found[position];
    if (!(bytes instanceof Uint8Array)) return;
    const id = eventIdOfPath(path);
    const json = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    try {
      parseStoredEvent({ text: json, location: core.store.describe(path), expectedId: id });
    } catch (error) {
      if (CorruptEventError.isInstance(error)) return;
      throw error;
    }
    const index = parseEventFileIndex(path);
    // An id the log holds elsewhere is not a lost event's (a read's repair looks for the ids it holds there).
    const held = core.findId(id);
    if (held !== undefined && held !== index) return;
    candidates.set(index, [...(candidates.get(index) ?? []), { id, json }]);
  });
  return candidates;
}

/**
 * The records that repair `damage` with the events `recovered` (see `findRepairRecords`): their original links
 * (index, prev and hash), in one buffer to append with one write. `writer` is the repairing instance's token;
 * `location` names the segment (for the error when the records would not keep those links).
 */
export function repairRecords(
  recovered: readonly RecoveredEvent[],
  damage: SegmentDamage,
  by: { readonly writer: string; readonly location: string },
): Buffer {
  const { bytes, records } = encodeRecords(recovered, damage.next, damage.prev, by.writer);
  // Cannot happen (the same index, prev and bytes): a record that would not repair the chain must never be written.
  const broken = records.findIndex(({ link }, offset) => link.hash !== recovered[offset]!.link.hash);
  if (broken !== -1) {
    throw new SegmentInvariantError({
      location: by.location,
      problem: `the repair record of event ${damage.next + broken} would not keep the chain link it was verified with`,
    });
  }
  return bytes;
}

/** The warning that `recovered` restored what `damage` took from `core`'s segment; `how` says where they are now. */
export function recoveryWarning(
  core: LogCore,
  damage: SegmentDamage,
  recovered: readonly RecoveredEvent[],
  how: string,
): string {
  const which = `event${recovered.length === 1 ? '' : 's'} ${recovered.map(({ link }) => link.index).join(', ')}`;
  return (
    `${core.store.describe(segmentPath(core.dir))}: bytes ${damage.run.offset}…${damage.run.end - 1} are damaged; ` +
    `${which} recovered from their event files (verified against the hash chain) and ${how}`
  );
}

/** The `DamagedSegmentError` of `damage` in `core`'s segment; `unrecovered`: the events recovery could not restore. */
export function damagedSegmentError(
  core: LogCore,
  damage: SegmentDamage,
  unrecovered: readonly number[],
): DamagedSegmentError {
  return new DamagedSegmentError({
    location: core.store.describe(segmentPath(core.dir)),
    offset: damage.run.offset,
    end: damage.run.end,
    missingIndex: damage.next,
    nextIntact: damage.nextIntact?.index,
    lastMissingIndex: damage.last,
    unrecovered,
  });
}
