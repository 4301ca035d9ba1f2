import type { CorruptEventError } from '../../errors/corrupt-event-error.js';
import type { LogCore } from '../log-core.js';
import { listedClean } from './foreign-event-files.js';

/**
 * What a segment log knows of its directory's listing, for the event files the segment does not hold (see
 * foreign-event-files.ts): the listing version its segment index records, the one its close found clean, and the
 * file that refuses its appends.
 */
export class SegmentListing {
  /** The listing version the segment index this instance last read or wrote records (see `segment-index.ts`). */
  indexed: string | undefined;
  /** The listing version this instance's close found clean, for the index it writes. */
  atClose: string | undefined;
  /** An event file at the next index this instance could not take into the segment: appends fail with it. */
  refused: CorruptEventError | undefined;
  /** The events the index read at open covers, when it records a listing version. */
  #listedCount = 0;

  /** The listing version of the segment index read at open, which covers `count` events. */
  adopt(listing: string | undefined, count: number): void {
    this.indexed = listing;
    if (listing !== undefined) this.#listedCount = count;
  }

  /**
   * Whether the log's directory is unchanged since a close that listed it and found no event file the segment
   * does not hold (its listing version is the one the segment index records) and the segment holds no event
   * since: then none can have appeared, and the open need not list it.
   */
  async unchangedSinceClose(core: LogCore): Promise<boolean> {
    if (this.indexed === undefined || core.length !== this.#listedCount) return false;
    return (await core.listingVersion()) === this.indexed;
  }

  /** At close: the version of a listing that found nothing foreign (none listed again when unchanged). */
  async listAtClose(core: LogCore): Promise<void> {
    this.atClose = (await this.unchangedSinceClose(core)) ? this.indexed : await listedClean(core);
  }
}
