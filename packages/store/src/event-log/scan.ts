import { compareCodePoints, sortByCodePoint } from '../internal/compare-code-points.js';
import { parseEventFileIndex } from './file-names.js';

/** Event file paths by index, for indices below the number of listed names; see `scanListing`. */
export interface ScanResult {
  /** The store path of the event file at each index, exactly as listed, or undefined (a gap). */
  readonly byIndex: (string | undefined)[];
  /** Names that were not event files (besides sub-directories and the reference's lock file). */
  readonly ignored: string[];
  /** Files whose index repeats another file's; the first in code-point order keeps the index. */
  readonly duplicates: string[];
  /** How many event files have an index at or past the listing's size (so certainly past a gap). */
  readonly beyond: number;
}

/**
 * Sorts a directory listing into event files by index without reading any file. The contiguous length
 * can never exceed the number of names, so a dense array of that size replaces sorting or a map: a file
 * whose index is at or beyond it sits after a gap by construction. Only paths are kept; ids are sliced
 * out of them when first needed, which keeps opening a 100k-event log close to the cost of its listing.
 */
export function scanListing(listing: readonly string[]): ScanResult {
  const byIndex = new Array<string | undefined>(listing.length);
  const ignored: string[] = [];
  const duplicates: string[] = [];
  let beyond = 0;
  for (const path of listing) {
    const index = parseEventFileIndex(path);
    if (index === -1) {
      if (!path.endsWith('/') && !path.endsWith('/.eventlog.lock') && path !== '.eventlog.lock') ignored.push(path);
    } else if (index >= listing.length) {
      beyond++;
    } else if (byIndex[index] === undefined) {
      byIndex[index] = path;
    } else if (compareCodePoints(path, byIndex[index]!) < 0) {
      // The listing may come unordered (`listUnordered`): the name first in code-point order wins, as in a sorted one.
      duplicates.push(byIndex[index]!);
      byIndex[index] = path;
    } else {
      duplicates.push(path);
    }
  }
  return { byIndex, ignored: sortByCodePoint(ignored), duplicates: sortByCodePoint(duplicates), beyond };
}

/** How many event files of `scan` lie past index `length` (the contiguous run ends at a gap there). */
export function countFilesPastGap(scan: ScanResult, length: number): number {
  let afterGap = scan.beyond;
  scan.byIndex.forEach((path, index) => {
    if (path !== undefined && index > length) afterGap++;
  });
  return afterGap;
}

/**
 * Warnings worth logging about a scan once the contiguous `length` is known: the gap (`afterGap` event files past
 * it, `countFilesPastGap`), and on open, odd names.
 */
export function describeScanProblems(options: {
  scan: ScanResult;
  length: number;
  afterGap: number;
  describe: (path: string) => string;
  dir: string;
  includeNames: boolean;
}): string[] {
  const { scan, length, afterGap, describe, dir, includeNames } = options;
  const warnings: string[] = [];
  if (afterGap > 0) {
    warnings.push(`${describe(dir)}: index ${length} is missing, so ${afterGap} event file(s) after it are ignored`);
  }
  if (!includeNames) return warnings;
  for (const path of scan.ignored) warnings.push(`${describe(path)}: not an event file name, ignored`);
  for (const path of scan.duplicates)
    warnings.push(`${describe(path)}: another file already holds this index, ignored`);
  return warnings;
}
