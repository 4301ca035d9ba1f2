/**
 * Event file names: `event-{index:05d}-{id}.json`, the reference layout (§7.4). The index is padded to
 * at least 5 digits and parsed numerically, so `event-100000-….json` follows `event-99999-….json`.
 *
 * Parsing is hand-written rather than a regex because `EventLog.open` runs it over every name in a
 * directory of possibly 100k entries, and its budget is 1.5× a bare listing.
 */

const PREFIX = 'event-';
const SUFFIX = '.json';
const MAX_ID_LENGTH = 200;

/** The parts of a valid event file name. */
export interface EventFileNameParts {
  readonly index: number;
  readonly id: string;
}

/** Pads an index to at least five digits, as the reference writer does. */
export function padIndex(index: number): string {
  return String(index).padStart(5, '0');
}

/** The file name (no directory) of the event at `index` with `id`. */
export function eventFileName(index: number, id: string): string {
  return `${PREFIX}${padIndex(index)}-${id}${SUFFIX}`;
}

/** The file name (no directory) of the slot claim for `index`, kept under `<dir>/.slots/`. */
export function slotFileName(index: number): string {
  return `${padIndex(index)}${SUFFIX}`;
}

/**
 * True for ids this store writes into file names and indexes on reading: 1–200 characters of
 * `A-Z a-z 0-9 _ -`. Every id the reference reader indexes (`[0-9a-fA-F-]{8,}`) qualifies, and so do
 * short ids such as `event-1` that the reference writes but cannot find again.
 */
export function isStorableEventId(id: string): boolean {
  if (id.length === 0 || id.length > MAX_ID_LENGTH) return false;
  for (let i = 0; i < id.length; i++) {
    if (!isIdChar(id.charCodeAt(i))) return false;
  }
  return true;
}

/**
 * Parses `event-{digits ≥ 5}-{id}.json` (a bare name, or anything ending in `/name`). Returns
 * undefined for any other name (lock files, `.slots/`, temp files, names of the wrong shape).
 */
export function parseEventFileName(name: string): EventFileNameParts | undefined {
  const index = parseEventFileIndex(name);
  return index === -1 ? undefined : { index, id: eventIdOfPath(name) };
}

/**
 * The reference reader's pattern, widened to every id `isStorableEventId` accepts. Sticky, so it runs
 * from the start of the base name without slicing; a regex rather than a hand-written loop because
 * irregexp flattens the concatenated strings a listing returns once, where `charCodeAt` walks them.
 */
const EVENT_FILE_NAME = /event-\d{5,}-[0-9A-Za-z_-]{1,200}\.json$/y;

/** The index of a valid event file name (or path), or -1 for any other name. Allocates nothing. */
export function parseEventFileIndex(name: string): number {
  const start = name.lastIndexOf('/') + 1;
  EVENT_FILE_NAME.lastIndex = start;
  if (!EVENT_FILE_NAME.test(name)) return -1;
  let index = 0;
  for (let cursor = start + PREFIX.length; ; cursor++) {
    const code = name.charCodeAt(cursor);
    if (code === 45 /* - */) break;
    index = index * 10 + (code - 48);
  }
  return Number.isSafeInteger(index) ? index : -1;
}

/** The id part of a path already known to be a valid event file name. */
export function eventIdOfPath(path: string): string {
  const digitsStart = path.lastIndexOf('/') + 1 + PREFIX.length;
  return path.slice(path.indexOf('-', digitsStart) + 1, path.length - SUFFIX.length);
}

/**
 * `eventIdOfPath(path) === id`, without slicing a string out of `path`: the duplicate check scans the
 * paths of a long log this way before its id map is built.
 */
export function pathHasEventId(path: string, id: string): boolean {
  const start = path.length - SUFFIX.length - id.length;
  if (start < 1 || path.charCodeAt(start - 1) !== 45 || !path.startsWith(id, start)) return false;
  const digitsStart = path.lastIndexOf('/') + 1 + PREFIX.length;
  return path.indexOf('-', digitsStart) + 1 === start && path.endsWith(SUFFIX);
}

function isIdChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 45 || // -
    code === 95 // _
  );
}
