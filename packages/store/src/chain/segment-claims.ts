import { DamagedSegmentError } from '../errors/damaged-segment-error.js';
import { lastRecordDamage } from '../event-log/segment/segment-damage.js';
import { decodeRecords, segmentPath } from '../event-log/segment/segment-records.js';
import { selectRecords } from '../event-log/segment/segment-selection.js';
import type { FileStore } from '../file-store.js';
import type { ChainLink } from './chain-link.js';
import { readBytes } from './read-bytes.js';

/** What a segment log's records say of its events (see `readSegmentClaims`). */
export interface SegmentClaims {
  /** The records that hold its events, as claims (a link and the event's bytes), in index order. */
  readonly claims: { link: ChainLink; json: Uint8Array }[];
  /**
   * Damage that lost events no repair record restores, where the selection stopped: the first index it took, and
   * the `DamagedSegmentError` naming it (the bytes, the events, whether intact records follow).
   */
  readonly damage?: { readonly index: number; readonly error: DamagedSegmentError };
}

/**
 * The records of a segment log (`<dir>/.slots/segment`) that hold its events, chosen by the rule every reader of
 * the log applies (`selectRecords`: up to damage that lost events and that nothing repaired), and that damage; none
 * when the log has no segment.
 */
export async function readSegmentClaims(store: FileStore, dir: string): Promise<SegmentClaims> {
  if (store.openAppendFile === undefined) return { claims: [] };
  const path = segmentPath(dir);
  const [bytes] = await readBytes(store, [path]);
  if (!(bytes instanceof Uint8Array)) return { claims: [] };
  const decoded = decodeRecords(bytes, 0);
  const selection = selectRecords(decoded, { bytes, base: 0, next: 0, prev: null, known: () => false });
  const claims = selection.accepted.map(({ link, json }) => ({ link, json }));
  const last = claims[claims.length - 1]?.link;
  // As the log reads it: last records changed after they committed are damage too, not a crash's cut-short tail.
  const damage =
    selection.damage ??
    lastRecordDamage(bytes, 0, decoded.end, {
      next: last === undefined ? 0 : last.index + 1,
      prev: last?.hash ?? null,
    });
  if (damage === undefined) return { claims };
  const error = new DamagedSegmentError({
    location: store.describe(path),
    offset: damage.run.offset,
    end: damage.run.end,
    missingIndex: damage.next,
    nextIntact: damage.nextIntact?.index,
    lastMissingIndex: damage.last,
  });
  return { claims, damage: { index: damage.next, error } };
}
