import { SEGMENT_INDEX_EVERY, SEGMENT_INDEX_MIN_COUNT } from './segment-index.js';

/** Where a segment log stands against the segment index it knows (see `isIndexWriteDue`). */
export interface IndexWriteState {
  /** Why the log looks: at open, after appends, or at close. */
  readonly when: 'open' | 'append' | 'close';
  /** The events the log holds. */
  readonly count: number;
  /** The events the segment index this instance last read or wrote covers. */
  readonly indexed: number;
  /** Whether more event files are known whole than that index says. */
  readonly moreChecked: boolean;
}

/**
 * Whether a segment log writes its segment index now: when the log is long enough and the index it knows covers
 * less than it: at close, any less; at open, when there was none (or it did not match) or it covers
 * `SEGMENT_INDEX_EVERY` events less; after appends, `SEGMENT_INDEX_EVERY` less (so a crash leaves at most that many
 * to scan). At close also when more event files are known whole than it says (so the next open skips checking them).
 */
export function isIndexWriteDue(state: IndexWriteState): boolean {
  const { when, count, indexed, moreChecked } = state;
  if (count < SEGMENT_INDEX_MIN_COUNT || (count === indexed && !moreChecked)) return false;
  const always = when === 'close' || (when === 'open' && indexed === 0);
  return always || count - indexed >= SEGMENT_INDEX_EVERY;
}
