import { decodeRecords, segmentPath } from '../event-log/segment/segment-records.js';
import { selectRecords } from '../event-log/segment/segment-selection.js';
import type { FileStore } from '../file-store.js';
import type { ChainLink } from './chain-link.js';
import { readBytes } from './read-bytes.js';

/**
 * The records of a segment log (`<dir>/.slots/segment`) that hold its events, as claims (a link and the event's
 * bytes), chosen by the rule every reader of the log applies (`selectRecords`: up to damage that lost events and
 * that nothing repaired); none when the log has no segment.
 */
export async function readSegmentClaims(
  store: FileStore,
  dir: string,
): Promise<{ link: ChainLink; json: Uint8Array }[]> {
  if (store.openAppendFile === undefined) return [];
  const [bytes] = await readBytes(store, [segmentPath(dir)]);
  if (!(bytes instanceof Uint8Array)) return [];
  const selection = selectRecords(decodeRecords(bytes, 0), { bytes, base: 0, next: 0, prev: null, known: () => false });
  return selection.accepted.map(({ link, json }) => ({ link, json }));
}
