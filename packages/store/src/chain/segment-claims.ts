import { decodeRecords, SegmentChain, segmentPath } from '../event-log/segment/segment-records.js';
import type { FileStore } from '../file-store.js';
import type { ChainLink } from './chain-link.js';
import { readBytes } from './read-bytes.js';

/**
 * The records of a segment log (`<dir>/.slots/segment`) that hold its events, as claims (a link and the event's
 * bytes), chosen by the rule every reader of the log applies (`SegmentChain`); none when the log has no segment.
 */
export async function readSegmentClaims(
  store: FileStore,
  dir: string,
): Promise<{ link: ChainLink; json: Uint8Array }[]> {
  if (store.openAppendFile === undefined) return [];
  const [bytes] = await readBytes(store, [segmentPath(dir)]);
  if (!(bytes instanceof Uint8Array)) return [];
  const ids = new Set<string>();
  const chain = new SegmentChain({ next: 0, prev: null, known: (id) => ids.has(id) });
  const claims: { link: ChainLink; json: Uint8Array }[] = [];
  for (const record of decodeRecords(bytes, 0).records) {
    if (!chain.accept(record)) continue;
    ids.add(record.link.id);
    claims.push({ link: record.link, json: record.json });
  }
  return claims;
}
