import type { ChainLink } from '../../chain/chain-link.js';
import { StoreError } from '../../errors.js';
import type { AppendFile } from '../../file-store.js';
import { eventFileName } from '../file-names.js';
import type { LogCore } from '../log-core.js';
import {
  type CheckedFiles,
  type CoveredRecord,
  formatSegmentIndex,
  readSegmentIndex,
  type SegmentIndexSnapshot,
  segmentIndexPath,
} from './segment-index.js';
import { decodeRecords } from './segment-records.js';

/** What an open takes from a segment index that matches its segment. */
export interface AdoptedIndex {
  readonly count: number;
  readonly size: number;
  readonly last: CoveredRecord;
  readonly lastLink: ChainLink;
  readonly pairs: Float64Array;
  readonly files: CheckedFiles | undefined;
  readonly listing: string | undefined;
}

/**
 * Reads `core`'s segment index and checks it against the segment (`file`): the segment must hold, where the
 * index says, an intact record (CRC-32 checked) with the index's checksum, for its last event, at the offsets
 * it gives, ending at its `size` (so a segment cut short, replaced or rewritten is caught, and one appended to
 * since is not: its new records are after `size`). On a match, `core`'s paths and id fingerprints are taken from
 * the index; otherwise the problem is warned about and undefined returned, for the caller to read the segment
 * whole (and write the index again).
 */
export async function adoptSegmentIndex(core: LogCore, file: AppendFile): Promise<AdoptedIndex | undefined> {
  const read = await readSegmentIndex(core.store, core.dir);
  if (read.kind === 'absent') return undefined;
  if (read.kind === 'invalid') {
    core.logger?.warn(
      `${core.store.describe(segmentIndexPath(core.dir))}: ${read.problem}; ignored, the segment is read whole`,
    );
    return undefined;
  }
  const { count, size, last, files, listing, pairs, text, starts } = read;
  const final = count - 1;
  const bytes = await file.readFrom(last.offset, size - last.offset);
  const record = decodeRecords(bytes, last.offset).records[0];
  const name = text.slice(starts[final]!, starts[final + 1]! - 1);
  const matches =
    record !== undefined &&
    record.offset === last.offset &&
    record.end === size &&
    record.crc === last.crc &&
    record.link.index === final &&
    record.jsonOffset === pairs[final * 2] &&
    record.jsonLength === pairs[final * 2 + 1] &&
    name === eventFileName(final, record.link.id);
  if (!matches) {
    core.logger?.warn(
      `${core.store.describe(segmentIndexPath(core.dir))}: the segment does not hold, at byte ${last.offset}, the record of event ${final} the index names (it was cut short, replaced or damaged since); ignored, the segment is read whole`,
    );
    return undefined;
  }
  // No string per event: paths and id fingerprints are read from the index's text on use (as the name index's).
  core.ids.seed(0, text, starts, count);
  core.paths.adopt(`${core.dir}/`, text, starts, count);
  core.lastLink = record.link;
  return { count, size, last, lastLink: record.link, pairs, files, listing };
}

/**
 * Writes a segment index (temp file + rename, so a reader sees the old one or the new one; a crash mid-write
 * leaves the old one and a temp file) without waiting for it to be durable (`writeRebuildable`: no fsync on the
 * local store): it is derived, and an open checks it against the segment, so one a power loss left empty, cut
 * short or older is ignored or covers less. A failure is warned about: the log does not need it.
 */
export async function writeSegmentIndex(core: LogCore, snapshot: SegmentIndexSnapshot): Promise<void> {
  const path = segmentIndexPath(core.dir);
  const data = formatSegmentIndex(snapshot);
  try {
    if (core.store.writeRebuildable) await core.store.writeRebuildable([{ path, data }]);
    else await core.store.write(path, data);
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    core.logger?.warn(`${core.store.describe(path)}: the segment index was not written (${error.message})`);
  }
}
