import type { ChainLink } from '../../chain/chain-link.js';
import { DamagedSegmentError } from '../../errors/damaged-segment-error.js';
import { SegmentInvariantError } from '../../errors/segment-invariant-error.js';
import type { AppendFile } from '../../file-store.js';
import { eventIdOfPath } from '../file-names.js';
import type { LogCore } from '../log-core.js';
import { findRepairRecords, type SegmentDamage } from './segment-damage.js';
import type { SegmentPositions } from './segment-positions.js';
import { damagedRecordStart, readRecordOf } from './segment-read-check.js';
import { decodeRecords, segmentPath } from './segment-records.js';
import { type RecoveredEvent, recoverFromEventFiles, recoveryWarning, repairRecords } from './segment-recovery.js';
import { damagedRecordLink } from './segment-skipped-runs.js';

// Damage a read meets in records a segment index covers (see segment-read-check.ts) is repaired as the open's
// (see `SegmentLog.catchUp`): by repair records another instance appended already, else from the event files the
// hash chain proves, appended again (a writer) or held in memory (a reader that does not write).

/** What a read's repair needs of its segment log. */
export interface ReadRepairContext {
  readonly core: LogCore;
  readonly file: AppendFile;
  readonly positions: SegmentPositions;
  /** Events held in memory (recovered by a reader that does not write). */
  readonly held: HeldEvents;
  /** The repairing instance's writer token; undefined when it must not write. */
  readonly writer: string | undefined;
}

/** Events recovered by an instance that must not write (so not in the segment), held in memory: by index. */
export class HeldEvents {
  readonly bytes = new Map<number, Uint8Array>();
  readonly links = new Map<number, ChainLink>();

  /** Holds the event of `json` at `link.index`; its bytes. */
  hold(json: string, link: ChainLink): Uint8Array {
    const data = Buffer.from(json, 'utf8');
    this.bytes.set(link.index, data);
    this.links.set(link.index, link);
    return data;
  }
}

/**
 * Reads event `event.index` again (a repair before this one may have restored it), else repairs the damage there
 * (see `repairDamagedRead`), applies the repair (new positions, or events held) and reads it; which events moved.
 */
export async function repairAndRead(
  context: ReadRepairContext,
  event: { readonly index: number; readonly id: string },
): Promise<{ bytes: Uint8Array; moved: number[] }> {
  const { file, positions, held } = context;
  const again = held.bytes.get(event.index) ?? (await readRecordOf(file, positions, event)).record?.json;
  if (again !== undefined) return { bytes: again, moved: [] };
  const repair = await repairDamagedRead(context, event.index);
  if (repair.kind === 'held') {
    for (const { json, link } of repair.events) held.hold(json, link);
    return { bytes: held.bytes.get(event.index)!, moved: [] };
  }
  for (const [index, { offset, length }] of repair.positions) positions.move(index, offset, length);
  const read = await readRecordOf(file, positions, event);
  // Cannot happen (the repair records were proven by the hash chain where they are): refused, not served.
  if (read.record === undefined) {
    throw new SegmentInvariantError({
      location: context.core.store.describe(segmentPath(context.core.dir)),
      problem: `the repair of event ${event.index} did not read back intact`,
    });
  }
  return { bytes: read.record.json, moved: [...repair.positions.keys()] };
}

/** Where the damaged events are now: their bytes in repair records (`moved`), or in memory (`held`). */
export type ReadRepair =
  | { readonly kind: 'moved'; readonly positions: ReadonlyMap<number, { offset: number; length: number }> }
  | { readonly kind: 'held'; readonly events: readonly RecoveredEvent[] };

/**
 * Repairs the damaged run of records around event `index` (whose record `readRecordOf` found not intact): the
 * run reaches from the intact record before it to the intact record after it, the hash before it and the `prev`
 * of the record after it (or, for the log's last event, the hash its damaged header still names) are what any
 * replacement must chain between. Throws `DamagedSegmentError` naming the segment, the bytes and the event when no
 * replacement is proven; the log's other events stay readable.
 */
export async function repairDamagedRead(context: ReadRepairContext, index: number): Promise<ReadRepair> {
  const { core, file, positions } = context;
  const linkAt = async (at: number): Promise<ChainLink | undefined> =>
    context.held.links.get(at) ?? (await readRecordOf(file, positions, { index: at, id: idAt(core, at) })).record?.link;
  let first = index;
  let before: ChainLink | undefined;
  while (first > 0) {
    before = await linkAt(first - 1);
    if (before !== undefined) break;
    first--;
  }
  let last = index;
  let after: ChainLink | undefined;
  while (last + 1 < core.length) {
    after = await linkAt(last + 1);
    if (after !== undefined) break;
    last++;
  }
  const firstRead = await readRecordOf(file, positions, { index: first, id: idAt(core, first) });
  const lastRead = await readRecordOf(file, positions, { index: last, id: idAt(core, last) });
  const lastOffset = positions.offsetOf(last);
  const run = {
    offset: damagedRecordStart(firstRead, positions.offsetOf(first)),
    end: lastOffset + positions.lengthOf(last),
  };
  const lastRun = { offset: damagedRecordStart(lastRead, lastOffset), end: run.end };
  const damagedLink = damagedRecordLink(lastRead.bytes, lastRead.base, lastRun);
  const damage: SegmentDamage = {
    run,
    next: first,
    prev: first === 0 ? null : before!.hash,
    // Every event of the run, however many: the log knows their indices (and ids), the damage need not say.
    last,
    nextIntact: after,
    damagedLink: damagedLink?.index === last ? damagedLink : undefined,
  };
  const ids = Array.from({ length: last - first + 1 }, (_, offset) => idAt(core, first + offset));
  const appended = await findAppendedRepair(context, damage, ids);
  if (appended !== undefined) {
    core.logger?.warn(recoveryWarning(core, damage, appended.events, 'read from the repair records in the segment'));
    return { kind: 'moved', positions: appended.positions };
  }
  const result = await recoverFromEventFiles(core, damage);
  const wrong = 'recovered' in result && result.recovered.some(({ event }, offset) => event.id !== ids[offset]);
  if ('unrecovered' in result || wrong || result.recovered.length !== ids.length) {
    throw new DamagedSegmentError({
      location: core.store.describe(segmentPath(core.dir)),
      offset: run.offset,
      end: run.end,
      missingIndex: first,
      nextIntact: after?.index,
      lastMissingIndex: last,
      unrecovered: 'unrecovered' in result ? result.unrecovered : ids.map((_, offset) => first + offset),
      reading: index,
    });
  }
  const { recovered } = result;
  if (context.writer === undefined) {
    core.logger?.warn(recoveryWarning(core, damage, recovered, 'kept in memory (this reader does not write)'));
    return { kind: 'held', events: recovered };
  }
  const location = core.store.describe(segmentPath(core.dir));
  const bytes = repairRecords(recovered, damage, { writer: context.writer, location });
  await file.append(bytes);
  // Found by its bytes (unique by the writer token): other writers may have appended before or after it.
  const found = Buffer.from(await file.readFrom(run.end)).indexOf(bytes);
  if (found === -1) {
    // Cannot happen (the store holds what it was given): positions pointing elsewhere would serve other bytes.
    const problem = `the repair records of event${recovered.length === 1 ? '' : 's'} ${recovered.map(({ link }) => link.index).join(', ')} were appended but are not in the segment after byte ${run.end}`;
    throw new SegmentInvariantError({ location, problem });
  }
  const at = run.end + found;
  core.logger?.warn(recoveryWarning(core, damage, recovered, 'appended to the segment again'));
  return { kind: 'moved', positions: positionsOf(decodeRecords(bytes, at).records) };
}

/** The event id of `index`, from its path. */
function idAt(core: LogCore, index: number): string {
  return eventIdOfPath(core.paths.at(index)!);
}

/**
 * The repair records an instance appended already (after the damage) for `damage`'s events, of ids `ids`: those
 * `findRepairRecords` proves by the hash chain, to the intact record after the damage or, for the last event, to the
 * hash its damaged header names.
 */
async function findAppendedRepair(
  context: ReadRepairContext,
  damage: SegmentDamage,
  ids: readonly string[],
): Promise<{ events: RecoveredEvent[]; positions: Map<number, { offset: number; length: number }> } | undefined> {
  const last = damage.next + ids.length - 1;
  const until = damage.nextIntact ?? (damage.damagedLink?.index === last ? damage.damagedLink : undefined);
  if (until === undefined) return undefined;
  const target = damage.nextIntact === undefined ? { ...until, index: last + 1, prev: until.hash } : until;
  const tail = await context.file.readFrom(damage.run.end);
  const records = decodeRecords(tail, damage.run.end).records;
  const found = findRepairRecords(records, 0, { next: damage.next, prev: damage.prev, until: target });
  if (found === undefined || found.some(({ link }, offset) => link.id !== ids[offset])) return undefined;
  const events = found.map(({ link, json }) => ({
    event: { id: link.id },
    json: Buffer.from(json).toString('utf8'),
    link,
  }));
  return { events, positions: positionsOf(found) };
}

/** Index → where each record's event bytes are. */
function positionsOf(
  records: readonly { link: ChainLink; jsonOffset: number; jsonLength: number }[],
): Map<number, { offset: number; length: number }> {
  return new Map(
    records.map(({ link, jsonOffset, jsonLength }) => [link.index, { offset: jsonOffset, length: jsonLength }]),
  );
}
