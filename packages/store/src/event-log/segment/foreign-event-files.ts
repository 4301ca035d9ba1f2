import { readBytes } from '../../chain/read-bytes.js';
import { CorruptEventError } from '../../errors/corrupt-event-error.js';
import { StoreError } from '../../errors.js';
import { eventIdOfPath, parseEventFileIndex } from '../file-names.js';
import type { LogCore } from '../log-core.js';
import type { SegmentAppend } from '../log-segment.js';
import { parseStoredEvent } from '../parse-stored-event.js';

/**
 * Event files in a segment log's directory that its segment does not hold: written by another program that
 * reads and writes the reference's layout (the Python reference continuing the conversation, a user's copy).
 * The reference counts every event file, so one at the log's next index is, for it, the next event: left out of
 * the segment, the log's next append would put a second event at that index, and the reference would read one
 * of the two. So a writer's open takes the run of such files from the log's next index into the segment, as the
 * file-per-event layout takes a file the reference appended (`take`); a file it cannot take (not an event, an id
 * the log already holds, another name for the index) makes appends fail naming it (`blocked`), and files at
 * indices the log already holds under other names are warned about.
 */
export interface ForeignEventFiles {
  /** The next events of the log, from the files at its next indices, in index order (exact bytes). */
  readonly take: readonly SegmentAppend[];
  /** Why the file at the next index after `take` cannot be taken; appends then fail with it. */
  readonly blocked: CorruptEventError | undefined;
  /** Warnings: files at indices the log holds under another name, or past the run taken. */
  readonly warnings: readonly string[];
}

/**
 * Lists the directory of `core`'s log, then (`settle`) reads the segment again, and sorts the event files its
 * segment does not hold (see `ForeignEventFiles`).
 */
export async function findForeignEventFiles(core: LogCore, settle: () => Promise<unknown>): Promise<ForeignEventFiles> {
  const store = core.store;
  const listing = store.listUnordered ? await store.listUnordered(core.dir) : await store.list(core.dir);
  await settle();
  const length = core.length;
  const warnings: string[] = [];
  const held: string[] = [];
  const after = new Map<number, string[]>();
  for (const path of listing) {
    const index = parseEventFileIndex(path);
    if (index === -1) continue;
    if (index < length) {
      if (path !== core.paths.at(index)) held.push(path);
      continue;
    }
    const paths = after.get(index);
    if (paths === undefined) after.set(index, [path]);
    else paths.push(path);
  }
  for (const path of held.sort()) {
    const index = parseEventFileIndex(path);
    warnings.push(
      `${store.describe(path)}: an event file the segment does not hold, at index ${index}, which the log holds as ${store.describe(core.paths.at(index)!)}; ignored (a reader of event files may read either)`,
    );
  }
  const take: SegmentAppend[] = [];
  let blocked: CorruptEventError | undefined;
  const ids = new Map<string, number>();
  for (let index = length; blocked === undefined && after.has(index); index++) {
    const paths = after.get(index)!;
    after.delete(index);
    if (paths.length === 1) {
      blocked = await readForeignEvent(core, { index, path: paths[0]!, ids, take });
    } else {
      blocked = new CorruptEventError({
        location: store.describe(core.dir),
        problem: `${paths.length} event files the segment does not hold share index ${index} (${paths.sort().join(', ')}), so no append may take it`,
      });
    }
  }
  const rest = [...after.values()].flat().sort();
  if (rest.length > 0) {
    const gap = length + take.length;
    warnings.push(
      `${store.describe(core.dir)}: ${rest.length} event file(s) the segment does not hold lie past index ${gap}, which no file the segment could take fills (${rest.map((path) => store.describe(path)).join(', ')}); ignored`,
    );
  }
  return { take, blocked, warnings };
}

/**
 * Reads the foreign file `path` at `index` and adds it to `take` when it is the event its name says, with an id
 * neither the log nor an earlier file of the run holds, named as this log names it, and valid UTF-8 (its bytes
 * are the record's, so the event file derived from it is the same file); otherwise the problem, appends refused.
 */
async function readForeignEvent(
  core: LogCore,
  options: { index: number; path: string; ids: Map<string, number>; take: SegmentAppend[] },
): Promise<CorruptEventError | undefined> {
  const { index, path, ids, take } = options;
  const location = core.store.describe(path);
  const refuse = (problem: string, cause?: unknown) =>
    new CorruptEventError({
      location,
      problem: `${problem}; it is the event file at the log's next index ${index}, which the segment does not hold, so no append may take that index`,
      cause,
    });
  const id = eventIdOfPath(path);
  if (path !== core.eventPath(index, id))
    return refuse(`it names index ${index} other than as ${core.eventPath(index, id)}`);
  const [read] = await readBytes(core.store, [path]);
  if (read === undefined || StoreError.isInstance(read)) {
    return refuse(`it cannot be read (${read?.message ?? 'missing'})`, read);
  }
  const text = Buffer.from(read).toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(read)) return refuse('it is not valid UTF-8');
  let event: SegmentAppend['event'];
  try {
    event = parseStoredEvent({ text, location, expectedId: id });
  } catch (error) {
    if (!CorruptEventError.isInstance(error)) throw error;
    return refuse((error as CorruptEventError).problem, error);
  }
  const earlier = core.findId(id) ?? ids.get(id);
  if (earlier !== undefined) return refuse(`its id '${id}' is already the event at index ${earlier}`);
  ids.set(id, index);
  take.push({ event, json: text });
  return undefined;
}

/**
 * At a close: the directory's listing version when a listing finds no event file the segment does not hold and
 * the directory did not change while it was listed (the version taken settled, so a change in the same clock
 * tick cannot hide behind it); undefined otherwise, or where the store has no listing versions.
 */
export async function listedClean(core: LogCore): Promise<string | undefined> {
  if (core.store.listingVersion === undefined) return undefined;
  const before = await core.listingVersion({ settled: true });
  if (before === undefined) return undefined;
  const found = await findForeignEventFiles(core, async () => undefined);
  if (found.take.length > 0 || found.blocked !== undefined || found.warnings.length > 0) return undefined;
  return (await core.listingVersion()) === before ? before : undefined;
}
