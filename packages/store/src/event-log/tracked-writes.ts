import type { StoreWrite } from '../file-store.js';
import { claimThenPublish } from './claim-then-publish.js';
import { MAX_UNFINISHED_PUBLISHES } from './event-log-options.js';
import { parseEventFileIndex } from './file-names.js';
import type { LogCore } from './log-core.js';
import { NAME_INDEX_MIN_COUNT, nameIndexPath, type VerifiedListing, writeNameIndex } from './name-index.js';
import type { SlotClaim } from './slot-claims.js';

// The log's writes that keep `LogCore.verified` (the knowledge the name index records: the directory holds
// exactly these event files) true across them, or drop it when something else may have changed the directory.

/**
 * Step 1 and 2 of an own append (see `claimThenPublish`), keeping `verified`: the directory's listing
 * version is read just before the claim and just after the event file, within the same store call where
 * the store can (the local store: on the directory handle its walk opened, two `fstat`s), and the log
 * stays verified only when the version before is the one it knew, so nothing else changed the directory.
 * A failure after the claim committed the event resolves true all the same, warned about
 * (`LogCore.warnUnfinishedEventFile`): the append happened, and only its derived file is missing.
 */
export async function claimAndPublish(
  core: LogCore,
  index: number,
  writes: { claim: StoreWrite; eventFile: StoreWrite },
  onClaimed: () => void,
): Promise<boolean> {
  let claimed = false;
  try {
    return await claimAndPublishOnce(core, index, writes, () => {
      onClaimed();
      claimed = true;
    });
  } catch (error) {
    // Past its claim the event is committed: the append succeeds, its file is rebuilt from the claim.
    if (!claimed) throw error;
    core.warnUnfinishedEventFile(error);
    return true;
  }
}

async function claimAndPublishOnce(
  core: LogCore,
  index: number,
  writes: { claim: StoreWrite; eventFile: StoreWrite },
  onClaimed: () => void,
): Promise<boolean> {
  const { claim, eventFile } = writes;
  const verified = core.verified;
  if (index === 0 && verified?.count === 0) {
    // A new log: its first claim may create the directory (or `.slots` in it), so the version moves
    // before the event file exists; writeEventFile settles that with a listing of the tiny directory.
    if (!(await core.store.writeIfAbsent(claim.path, claim.data))) return false;
    onClaimed();
    await writeEventFile(core, index, () => core.store.write(eventFile.path, eventFile.data));
    return true;
  }
  const track = verified !== undefined && verified.count === index && core.store.listingVersion !== undefined;
  // Unverified until the versions say otherwise (a failed or lost write leaves it so: the next open lists).
  core.verified = undefined;
  let versions: { before: string | undefined; after: string } | undefined;
  const observe = track
    ? {
        dir: core.dir,
        observe: (before: string | undefined, after: string) => {
          versions = { before, after };
        },
      }
    : undefined;
  // Bounded: a slow disk must not accumulate open directory handles behind a fast loop.
  if (core.unfinishedPublishes.size >= MAX_UNFINISHED_PUBLISHES) await core.publishesFinished();
  const written = await claimThenPublish(core.store, claim, eventFile, onClaimed, observe, core.deferPublish);
  if (written && verified !== undefined && versions !== undefined && versions.before === verified.listing) {
    core.verified = { listing: versions.after, count: index + 1 };
  }
  return written;
}

/** One append of a batch: its claim and event file, and (for `writeIfAbsentThenLinkMany`) its staged body. */
export interface AppendWrites {
  readonly claim: StoreWrite;
  readonly eventFile: StoreWrite;
  readonly body?: StoreWrite;
}

/**
 * `claimAndPublish` for a batch starting at `start`: `FileStore.writeIfAbsentThenLinkMany` when every item has
 * its staged body (the event's bytes stored once), else `writeIfAbsentThenWriteMany`.
 */
export async function claimAndPublishMany(
  core: LogCore,
  start: number,
  writes: readonly AppendWrites[],
  onClaimed: (offset: number) => void,
): Promise<number> {
  let claimed = 0;
  try {
    return await claimAndPublishManyOnce(core, start, writes, (offset) => {
      onClaimed(offset);
      claimed = offset + 1;
    });
  } catch (error) {
    // The claims made are commits (see claimAndPublish): those events are appended, the rest go one by one.
    if (claimed === 0) throw error;
    core.warnUnfinishedEventFile(error);
    return claimed;
  }
}

async function claimAndPublishManyOnce(
  core: LogCore,
  start: number,
  writes: readonly AppendWrites[],
  onClaimed: (offset: number) => void,
): Promise<number> {
  const verified = core.verified;
  const track = verified !== undefined && verified.count === start && core.store.listingVersion !== undefined;
  core.verified = undefined;
  let versions: { before: string; after: string } | undefined;
  const options = {
    ...(track && { onVersions: (before: string, after: string) => (versions = { before, after }) }),
    ...(core.deferPublish && { deferThen: core.deferPublish }),
  };
  const linked = core.store.writeIfAbsentThenLinkMany;
  const created =
    linked !== undefined && writes.every((write) => write.body !== undefined)
      ? await linked.call(
          core.store,
          writes.map(({ claim, body, eventFile }) => ({ first: claim, body: body!, linkAt: eventFile.path })),
          onClaimed,
          options,
        )
      : await core.store.writeIfAbsentThenWriteMany!(
          writes.map(({ claim, eventFile }) => ({ first: claim, second: eventFile })),
          onClaimed,
          options,
        );
  // Verified again only when the whole batch went in and nothing else changed the directory meanwhile.
  if (created === writes.length && versions !== undefined && versions.before === verified?.listing) {
    core.verified = { listing: versions.after, count: start + created };
  } else if (start === 0 && verified?.count === 0 && created === writes.length) {
    // A new log: its first claims created the directory (or `.slots` in it), so the version moved; a listing
    // of a directory that small costs nothing and says whether it holds exactly these event files.
    core.verified = await verifyExactly(core, created);
  }
  return created;
}

/**
 * Writes the event file at `index` with `write`, keeping `verified` true: it still holds after the
 * write when it held just before (the directory's version unchanged since) and covered `[0, index)`.
 * Otherwise someone else changed the directory, or the file is not the next one: it is dropped.
 */
export async function writeEventFile(core: LogCore, index: number, write: () => Promise<void>): Promise<void> {
  let verified = core.verified;
  let tracked =
    verified !== undefined && verified.count === index && (await core.listingVersion()) === verified.listing;
  // A new log: its first claim created the directory (or `.slots` in it), so the version moved; a
  // listing of a directory that small costs nothing and says whether it holds any event file.
  if (!tracked && index === 0 && verified?.count === 0) {
    verified = await verifyExactly(core, 0);
    tracked = verified !== undefined;
  }
  core.verified = tracked ? verified : undefined;
  await write();
  if (tracked && core.verified === verified) {
    const listing = await core.listingVersion();
    core.verified = listing === undefined ? undefined : { listing, count: index + 1 };
  }
}

/**
 * Publishes a committed claim's event file: a copy of its staged body (on the local store a hard link, so the
 * bytes stay stored once), its bytes for other chained claims, a copy of the claim for unchained ones.
 */
export function writeFromClaim(core: LogCore, index: number, path: string, claim: SlotClaim): Promise<void> {
  return writeEventFile(core, index, () => {
    if (claim.staged !== undefined) return core.store.copy(claim.staged, path);
    return claim.link === undefined ? core.store.copy(core.slotPath(index), path) : core.store.write(path, claim.json);
  });
}

/**
 * `{ listing, count }` when the directory's event files are exactly those at indices `[0, count)` (checked by a
 * bracketed listing; for a new log, whose directory is tiny), else undefined.
 */
async function verifyExactly(core: LogCore, count: number): Promise<VerifiedListing | undefined> {
  const listing = await core.listingVersion();
  if (listing === undefined) return undefined;
  const names = await core.store.list(core.dir);
  const indices = names.map((name) => parseEventFileIndex(name)).filter((index) => index !== -1);
  if (indices.length !== count || indices.some((index) => index >= count)) return undefined;
  return (await core.listingVersion()) === listing ? { listing, count } : undefined;
}

/** Writes the name index when `verified` is long and not on disk yet (see `EventLog.close`); warns on failure. */
export async function writeNameIndexIfNeeded(core: LogCore): Promise<void> {
  // First every event file finished: the index must not name a file a power loss could still drop.
  await core.publishesFinished();
  if (!core.writesNameIndex) return;
  const verified = core.verified;
  if (verified === undefined || verified.count < NAME_INDEX_MIN_COUNT) return;
  const onDisk = core.indexOnDisk;
  if (onDisk?.listing === verified.listing && onDisk.count === verified.count) return;
  try {
    // Settled: no later change to the directory can get the version the index names (see FileStore).
    const listing = await core.listingVersion({ settled: true });
    if (listing !== verified.listing || core.verified !== verified) {
      if (core.verified === verified) core.verified = undefined;
      return;
    }
    await writeNameIndex(core.store, core.dir, verified, core.paths);
    core.indexOnDisk = verified;
  } catch (error) {
    core.logger?.warn(
      `${core.store.describe(nameIndexPath(core.dir))}: the name index was not written (${(error as Error).message})`,
    );
  }
}
