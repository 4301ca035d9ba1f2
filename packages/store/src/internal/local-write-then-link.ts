import { closeSync, constants, fstatSync, linkSync, openSync, readSync, renameSync, unlinkSync } from 'node:fs';
import { StoreError } from '../errors.js';
import { eventFileName } from '../event-log/file-names.js';
import type { StoreWrite } from '../file-store.js';
import { type DirectoryHandle, openDirectory, syncDirectory } from './confined-directory.js';
import { errnoCode } from './local-fs.js';
import {
  borrowedRoot,
  claimSegmentsBelow,
  type LocalWritePairDeps,
  type LocalWritePairOptions,
  versionOf,
} from './local-write-pair.js';

/** One claim, the body it commits and where that body is published (see `FileStore.writeIfAbsentThenLinkMany`). */
export interface LinkedWrite {
  readonly first: StoreWrite;
  readonly body: StoreWrite;
  readonly linkAt: string;
}

/** What the local store lends `writeIfAbsentThenLinkMany`: `LocalWritePairDeps`, its `copy` (a hard link) and `delete`. */
export interface LocalWriteThenLinkDeps extends LocalWritePairDeps {
  copy(from: string, to: string): Promise<void>;
  delete(path: string): Promise<void>;
}

/**
 * The local store's `writeIfAbsentThenLinkMany`, the EventLog's append storing each event once: for each item,
 * its body (the event's bytes) at `<dir>/.slots/event-….json`, then its claim (the chain link alone) at
 * `<dir>/.slots/n.json`, then the event file `<dir>/event-….json` as a hard link of the body, under one walk
 * from the root. Every body is in place before any claim is linked, so a claim never exists without its body.
 *
 * With `'fsync'`: every body and claim temp is written and fsynced at once (one fsync's wait), the bodies
 * renamed to their names, the claims linked in order, then one fsync of `.slots/` makes bodies and claims
 * durable together: the two fsyncs in turn that one durable file costs, as the full claims of
 * `writeIfAbsentThenWriteMany` need. The body's rename precedes the claim's link in the same directory, and
 * ext4, xfs and btrfs journal a directory's changes in order, so a power loss before that fsync cannot keep
 * a claim and lose its body. The event files are links of durable bodies, so a power loss leaves each one
 * whole or missing, never cut short; with `rebuildable` their directory is not fsynced (a missing one is linked
 * again from its body by the next open or read). A body whose claim was lost to another writer is removed, unless that writer appended the same event (same
 * index and id: its claim commits this very name).
 */
export async function writeIfAbsentThenLinkManyLocal(
  deps: LocalWriteThenLinkDeps,
  items: readonly LinkedWrite[],
  onCreated: (index: number) => void,
  options: LocalWritePairOptions = {},
): Promise<number> {
  if (items.length === 0) return 0;
  const claims = items.map((item) => deps.fileKey(item.first.path));
  const bodies = items.map((item) => deps.fileKey(item.body.path));
  const files = items.map((item) => deps.fileKey(item.linkAt));
  const below = claimSegmentsBelow(files[0]!.segments, claims[0]!.segments);
  const claimDirectoryOf = (key: { segments: readonly string[] }) => same(key.segments, claims[0]!.segments);
  const layout =
    below !== undefined &&
    claims.every(claimDirectoryOf) &&
    bodies.every(claimDirectoryOf) &&
    files.every((file) => same(file.segments, files[0]!.segments));
  if (!layout) return oneAtATime(deps, items, onCreated);

  let directory: DirectoryHandle | undefined;
  let claimDirectory: DirectoryHandle | undefined;
  const temps: string[] = [];
  let created = 0;
  let versionBefore: string | undefined;
  let failing = { operation: 'writeIfAbsent', path: items[0]!.first.path, location: claims[0]!.location };
  try {
    directory = (await openDirectory(deps.root, files[0]!.segments, {
      create: true,
      durable: deps.durable,
      storePath: items[0]!.linkAt,
      sync: true,
    }))!;
    if (options.onVersions !== undefined) versionBefore = await versionOf(directory);
    claimDirectory = (await openDirectory(borrowedRoot(deps.root, directory), below, {
      create: true,
      durable: deps.durable,
      storePath: items[0]!.first.path,
      sync: true,
      above: files[0]!.segments,
    }))!;
    const slots = claimDirectory;
    const writes = items.flatMap((item, i) => [
      () => deps.writeTemp(slots, bodies[i]!.name, item.body.data),
      () => deps.writeTemp(slots, claims[i]!.name, item.first.data),
    ]);
    // With 'fsync' all at once (the fsyncs overlap in the thread pool); else synchronous calls, in turn.
    const results = deps.durable ? await Promise.allSettled(writes.map((write) => write())) : await inTurn(writes);
    for (const result of results) if (result.status === 'fulfilled') temps.push(result.value);
    // In turn, the writes stop at the first failure: every write ran unless one failed.
    const failedAt = results.findIndex((result) => result.status === 'rejected');
    if (failedAt !== -1) {
      // A body, then its claim: the failure is reported as the call that stores it would report it.
      const i = Math.floor(failedAt / 2);
      failing =
        failedAt % 2 === 0
          ? { operation: 'write', path: items[i]!.body.path, location: bodies[i]!.location }
          : { operation: 'writeIfAbsent', path: items[i]!.first.path, location: claims[i]!.location };
      throw (results[failedAt] as PromiseRejectedResult).reason;
    }
    // Every body under its name before any claim: a claim never exists without the bytes it commits.
    for (let i = 0; i < items.length; i++) {
      failing = { operation: 'write', path: items[i]!.body.path, location: bodies[i]!.location };
      // A rename, so a body left by an attempt that never claimed (a crash) is replaced.
      renameSync(temps[2 * i]!, `${slots.path}/${bodies[i]!.name}`);
    }
    for (let i = 0; i < items.length; i++) {
      failing = { operation: 'writeIfAbsent', path: items[i]!.first.path, location: claims[i]!.location };
      try {
        linkSync(temps[2 * i + 1]!, `${slots.path}/${claims[i]!.name}`);
        created++;
      } catch (error) {
        if (errnoCode(error) === 'EEXIST') break;
        throw error;
      }
    }
    for (let i = 0; i < items.length; i++) removeQuietly(temps[2 * i + 1]!);
    // The bodies of items not claimed, unless the claim there is the same event's (appended by another writer,
    // whose claim names this very body: the name holds the index and the id).
    for (let i = created; i < items.length; i++) {
      if (!claimNamesBody(`${slots.path}/${claims[i]!.name}`, bodies[i]!.name)) {
        removeQuietly(`${slots.path}/${bodies[i]!.name}`);
      }
    }
    if (created > 0 && deps.durable) await syncDirectory(slots);
  } catch (error) {
    for (const temp of temps) removeQuietly(temp);
    await claimDirectory?.close();
    await directory?.close();
    // A directory removed since it was opened (ENOENT) before anything was created: one at a time, afresh.
    if (created === 0 && errnoCode(error) === 'ENOENT') return oneAtATime(deps, items, onCreated);
    if (StoreError.isInstance(error)) throw error;
    throw deps.fail(error, failing.operation, failing.path, failing.location);
  }
  if (created === 0) {
    await claimDirectory.close();
    await directory.close();
    return 0;
  }
  try {
    for (let i = 0; i < created; i++) onCreated(i);
  } catch (error) {
    await claimDirectory.close();
    await directory.close();
    throw error;
  }
  try {
    for (let i = 0; i < created; i++) {
      failing = { operation: 'copy', path: items[i]!.linkAt, location: files[i]!.location };
      linkExisting(`${claimDirectory.path}/${bodies[i]!.name}`, `${directory.path}/${files[i]!.name}`);
    }
    if (deps.durable && options.rebuildable !== true) await syncDirectory(directory);
    if (options.onVersions !== undefined && versionBefore !== undefined) {
      const after = await versionOf(directory);
      if (after !== undefined) options.onVersions(versionBefore, after);
    }
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw deps.fail(error, failing.operation, failing.path, failing.location);
    // The directory was removed (and maybe made again) since it was opened: `copy` walks afresh.
    for (let i = 0; i < created; i++) await deps.copy(items[i]!.body.path, items[i]!.linkAt);
  } finally {
    // Closed only now: the bodies are linked through its handle's path.
    await claimDirectory.close();
    await directory.close();
  }
  return created;
}

/** The items through the store's own calls, in order, until a claim is taken (not the EventLog's layout). */
async function oneAtATime(
  deps: LocalWriteThenLinkDeps,
  items: readonly LinkedWrite[],
  onCreated: (index: number) => void,
): Promise<number> {
  for (let i = 0; i < items.length; i++) {
    const { first, body, linkAt } = items[i]!;
    await deps.write(body.path, body.data);
    if (!(await deps.writeIfAbsent(first.path, first.data))) {
      await deps.delete(body.path).catch(() => undefined);
      return i;
    }
    onCreated(i);
    await deps.copy(body.path, linkAt);
  }
  return items.length;
}

/** `link(from, to)`; an existing `to` (another writer, or a reader rolling the event forward, linked it first) is fine. */
function linkExisting(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
}

/** Whether the claim at `claimPath` exists and commits the body named `bodyName` (its index and id). */
function claimNamesBody(claimPath: string, bodyName: string): boolean {
  let header: string;
  let fd: number | undefined;
  try {
    // Never blocking on what may sit at a claim's name (a FIFO) and never following a link: a regular file only.
    fd = openSync(claimPath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFile()) return false;
    const buffer = Buffer.alloc(1024);
    const text = buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
    header = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  try {
    const { index, id } = JSON.parse(header) as { index?: unknown; id?: unknown };
    return typeof index === 'number' && typeof id === 'string' && eventFileName(index, id) === bodyName;
  } catch {
    return false;
  }
}

/** Removes a file with a synchronous call, ignoring failure (a leftover temp name is cleared by `list`). */
function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or left for `list` to clear.
  }
}

async function inTurn<T>(runs: readonly (() => Promise<T>)[]): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = [];
  for (const run of runs) {
    try {
      results.push({ status: 'fulfilled', value: await run() });
    } catch (reason) {
      results.push({ status: 'rejected', reason });
      break;
    }
  }
  return results;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}
