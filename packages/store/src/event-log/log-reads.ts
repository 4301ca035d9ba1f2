import type { AnyEvent } from '@x/events';
import { readBytes } from '../chain/read-bytes.js';
import { CorruptEventError } from '../errors/corrupt-event-error.js';
import { StoreError } from '../errors.js';
import { eventIdOfPath } from './file-names.js';
import { isFileNotFound } from './is-file-not-found.js';
import type { LogCore } from './log-core.js';
import { parseStoredEvent } from './parse-stored-event.js';
import { readSlotClaim, type SlotClaim } from './slot-claims.js';
import { writeFromClaim } from './tracked-writes.js';
import { isUnfinishedCopy } from './unfinished-file.js';

/** The event at `index` (within bounds): from the cache, else its file, else (a file a crash left) its claim. */
export async function loadEvent(core: LogCore, index: number): Promise<AnyEvent> {
  const cached = core.cache.get(index);
  if (cached !== undefined) return cached;
  if (core.segment !== undefined) {
    const fromSegment = await core.segment.read(index);
    core.cache.set(index, fromSegment);
    return fromSegment;
  }
  const path = core.paths.at(index)!;
  const id = eventIdOfPath(path);
  rejectRepeatedId(core, index, path, id);
  let event: AnyEvent;
  try {
    const text = await core.store.read(path);
    event = parseStoredEvent({ text, location: core.store.describe(path), expectedId: id });
  } catch (error) {
    const claim = await claimForDamagedFile(core, { index, path, id }, error);
    if (claim === undefined) throw error;
    await publishFromClaim(core, index, path, claim);
    event = claim.event;
  }
  core.cache.set(index, event);
  return event;
}

/**
 * A `CorruptEventError` when an earlier index already holds `id` (only a foreign writer or a hand edit leaves two
 * files with one id: this package rejects a repeated id on append). The first holds the event; the repeat is never
 * served as the event a second time, and is named with the file that holds it first. Checked from the names only.
 */
function rejectRepeatedId(core: LogCore, index: number, path: string, id: string): void {
  const problem = repeatedIdProblem(core, index, id);
  if (problem !== undefined) throw new CorruptEventError({ location: core.store.describe(path), problem });
}

/** What is wrong with a file or claim at `index` holding `id` when an earlier index holds it already, else undefined. */
export function repeatedIdProblem(core: LogCore, index: number, id: string): string | undefined {
  if (index < core.length && core.ids.isFirstIndexOf(core.paths, index, id)) return undefined;
  const first = core.findId(id);
  if (first === undefined || first >= index) return undefined;
  return `its id '${id}' is already event ${first}'s (${core.store.describe(core.paths.at(first)!)}), so it is not read as a second copy of that event`;
}

/**
 * The claim to serve event `index` from when reading its file failed with `error`, or undefined (the error
 * stands): a missing file whose claim names it (its writer has not written it yet, or never will), or an
 * unfinished one (empty or cut short, as a power loss leaves a file written without fsync) whose claim holds
 * the bytes it was meant to hold. A file with other content is not repaired: it stays a `CorruptEventError`.
 */
async function claimForDamagedFile(
  core: LogCore,
  file: { index: number; path: string; id: string },
  error: unknown,
): Promise<SlotClaim | undefined> {
  const { index, path, id } = file;
  const missing = isFileNotFound(error);
  if (!missing && !CorruptEventError.isInstance(error)) return undefined;
  let claim: SlotClaim | undefined;
  try {
    claim = await readSlotClaim(core.store, core.slotPath(index));
  } catch (claimError) {
    if (StoreError.isInstance(claimError)) return undefined;
    throw claimError;
  }
  if (claim === undefined || claim.event.id !== id) return undefined;
  if (missing) return claim;
  const [bytes] = await readBytes(core.store, [path]);
  if (!(bytes instanceof Uint8Array) || !isUnfinishedCopy(bytes, Buffer.from(claim.json, 'utf8'))) return undefined;
  core.logger?.warn(
    `${core.store.describe(path)} was left unfinished (${bytes.length === 0 ? 'empty' : 'cut short'}, as a crash or power loss leaves a file whose data had not reached the disk); event ${index} is read from its slot claim${core.rollsForward ? ' and the file is rewritten' : ''}`,
  );
  return claim;
}

/**
 * Writes the event file of a committed claim for a writer that did not. Best effort: the claim is
 * the commit point and holds the whole event, so a file that cannot be written (a directory in the
 * way, a read-only directory) is warned about and the event is served from its claim.
 */
export async function publishFromClaim(core: LogCore, index: number, path: string, claim: SlotClaim): Promise<void> {
  if (!core.rollsForward) return;
  try {
    await writeFromClaim(core, index, path, claim);
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    core.logger?.warn(`${error.message}; event ${index} is read from its slot claim`);
  }
}
