import { StoreError } from '../errors.js';
import type { FileStore } from '../file-store.js';
import { parseEventFileIndex } from './file-names.js';
import { isFileNotFound } from './is-file-not-found.js';
import type { PathList } from './path-list.js';
import type { ScanResult } from './scan.js';

/**
 * The persisted name index of a log: `<dir>/.slots/name-index`, the event file names at indices 0..N-1
 * as they were while the directory's listing version (`FileStore.listingVersion`) was `listing`. Opening a
 * long log whose directory still has that version pushes these names instead of listing 100k entries.
 *
 * Derived and never trusted over the event files: it is used only when the directory's version is the one
 * it names (so no entry was created, removed or renamed since), and ignored (with a warning) when anything
 * in it looks wrong. No `.json` suffix, so nothing takes it for a slot claim.
 *
 * Format: line 1 is `{"format":"x-name-index","v":1,"listing":"<token>","count":N}`, then N lines, one
 * event file name each (no directory), each ending with `\n`.
 */

/** The state the index records: the event files in the directory are exactly these `count` names while its version is `listing`. */
export interface VerifiedListing {
  readonly listing: string;
  readonly count: number;
}

/** Logs shorter than this list fast enough: no index is written for them. */
export const NAME_INDEX_MIN_COUNT = 1024;

const FORMAT = 'x-name-index';
const VERSION = 1;
/** Names checked with the event file name parser besides the first and the last. */
const SAMPLES = 16;

export function nameIndexPath(dir: string): string {
  return `${dir}/.slots/name-index`;
}

/** The index file's text for `names` (file names without directory). */
export function formatNameIndex(listing: string, names: readonly string[]): string {
  const body = names.length === 0 ? '' : `${names.join('\n')}\n`;
  return `${JSON.stringify({ format: FORMAT, v: VERSION, listing, count: names.length })}\n${body}`;
}

/** Writes the index of `dir` for `verified`: the names of `paths[0..count)`, which are all `${dir}/<name>`. */
export async function writeNameIndex(
  store: FileStore,
  dir: string,
  verified: VerifiedListing,
  paths: PathList,
): Promise<void> {
  const header = JSON.stringify({ format: FORMAT, v: VERSION, listing: verified.listing, count: verified.count });
  await store.write(nameIndexPath(dir), `${header}\n${paths.namesText(`${dir}/`, verified.count)}`);
}

/**
 * The number of event files a listing holds when they are exactly the indices 0..n-1 (no gap with files
 * after it, no duplicate index); undefined otherwise, since an index of the run would hide the others.
 */
export function listedRun(scan: ScanResult): number | undefined {
  if (scan.beyond > 0 || scan.duplicates.length > 0) return undefined;
  const { byIndex } = scan;
  let count = 0;
  while (count < byIndex.length && byIndex[count] !== undefined) count++;
  for (let index = count + 1; index < byIndex.length; index++) if (byIndex[index] !== undefined) return undefined;
  return count;
}

/** What reading the index found: its names when it is current, or why it is not used. */
export type NameIndexRead =
  | {
      readonly kind: 'current';
      /** The file's text; name i is `text[starts[i], starts[i + 1] - 1)`. */
      readonly text: string;
      readonly starts: Int32Array;
      readonly count: number;
    }
  | { readonly kind: 'absent' | 'stale' }
  | { readonly kind: 'invalid'; readonly problem: string };

/**
 * Reads the index of `dir` with one `store.read` and returns its event file names if it was written for
 * the listing version `listing`. A missing file is `absent`, another version `stale` (both normal); anything malformed
 * is `invalid` with the problem, for the caller to warn about before listing as usual.
 */
export async function readNameIndex(store: FileStore, dir: string, listing: string): Promise<NameIndexRead> {
  let text: string;
  try {
    text = await store.read(nameIndexPath(dir));
  } catch (error) {
    if (isFileNotFound(error)) return { kind: 'absent' };
    if (StoreError.isInstance(error)) return { kind: 'invalid', problem: error.message };
    throw error;
  }
  return parseNameIndex(text, listing);
}

/** Parses and checks an index's text (see `readNameIndex`). */
export function parseNameIndex(text: string, listing: string): NameIndexRead {
  const headerEnd = text.indexOf('\n');
  if (headerEnd === -1) return { kind: 'invalid', problem: 'no header line' };
  let header: unknown;
  try {
    header = JSON.parse(text.slice(0, headerEnd));
  } catch {
    return { kind: 'invalid', problem: 'the header is not JSON' };
  }
  if (!isHeader(header)) return { kind: 'invalid', problem: `not an ${FORMAT} v${VERSION} header` };
  if (header.listing !== listing) return { kind: 'stale' };
  if (!text.endsWith('\n')) return { kind: 'invalid', problem: 'truncated (no final newline)' };
  // Each name ends with a newline: only their offsets are collected (no string per name; see PathList).
  const count = header.count;
  if (count > text.length) return { kind: 'invalid', problem: `the header says ${count} names, the file is shorter` };
  const starts = new Int32Array(count + 1);
  let start = headerEnd + 1;
  for (let index = 0; index < count; index++) {
    starts[index] = start;
    const end = text.indexOf('\n', start);
    if (end === -1) return { kind: 'invalid', problem: `the header says ${count} names, the file has ${index}` };
    start = end + 1;
  }
  starts[count] = start;
  if (start !== text.length) return { kind: 'invalid', problem: `the file has more than the ${count} names it says` };
  const problem = checkSample(text, starts, count);
  return problem === undefined ? { kind: 'current', text, starts, count } : { kind: 'invalid', problem };
}

/** The first, the last and a few names between must be event file names of their own index. */
export function checkSample(text: string, starts: Int32Array, count: number): string | undefined {
  if (count === 0) return undefined;
  const step = Math.max(1, Math.floor(count / (SAMPLES + 1)));
  for (let index = 0; index < count; index += step) {
    const problem = checkName(text, starts, index);
    if (problem !== undefined) return problem;
  }
  return checkName(text, starts, count - 1);
}

function checkName(text: string, starts: Int32Array, index: number): string | undefined {
  const name = text.slice(starts[index]!, starts[index + 1]! - 1);
  if (name.includes('/') || parseEventFileIndex(name) !== index) {
    return `line ${index + 2} (${JSON.stringify(name.slice(0, 80))}) is not the event file name of index ${index}`;
  }
  return undefined;
}

function isHeader(value: unknown): value is { listing: string; count: number } {
  if (typeof value !== 'object' || value === null) return false;
  const header = value as Record<string, unknown>;
  return (
    header.format === FORMAT &&
    header.v === VERSION &&
    typeof header.listing === 'string' &&
    typeof header.count === 'number' &&
    Number.isSafeInteger(header.count) &&
    header.count >= 0
  );
}
