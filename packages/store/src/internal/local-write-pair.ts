import { linkSync, unlinkSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { StoreWrite } from '../file-store.js';
import { type ConfinedRoot, type DirectoryHandle, openDirectory, syncDirectory } from './confined-directory.js';
import { directoryVersion } from './directory-version.js';
import { errnoCode } from './local-fs.js';

/** A validated file path, split as the local store splits it. */
export interface LocalFileKey {
  readonly segments: readonly string[];
  readonly name: string;
  readonly location: string;
}

/** What the local store lends `writeIfAbsentThenWrite`: its root, its policy and its own primitives. */
export interface LocalWritePairDeps {
  readonly root: ConfinedRoot;
  readonly durable: boolean;
  fileKey(path: string): LocalFileKey;
  fail(error: unknown, operation: string, path: string, location: string): Error;
  /** A fresh temp file in `directory` holding `data` (fsynced when `synced`, by default when durable); its path. */
  writeTemp(directory: DirectoryHandle, name: string, data: string | Uint8Array, synced?: boolean): Promise<string>;
  /** Hard-links `temp` at `target` (EEXIST when taken) and removes `temp`, whatever happened. */
  linkThenRemove(temp: string, target: string): Promise<void>;
  /** Renames `temp` over `target` (removing `temp` on failure); with `quick`, a synchronous call. */
  replaceWith(temp: string, target: string, quick?: boolean): Promise<void>;
  writeIfAbsent(path: string, data: string | Uint8Array): Promise<boolean>;
  write(path: string, data: string | Uint8Array): Promise<void>;
}

/** Options of the local `writeIfAbsentThenWrite` (see `WritePairOptions`). */
export interface LocalWritePairOptions {
  readonly onVersions?: ((before: string, after: string) => void) | undefined;
  /**
   * The caller can rebuild the second file from the first (the EventLog: an event file from its claim), so
   * with `'fsync'` the second file is written and renamed but not fsynced, nor is its directory: the call
   * waits for the first file's two fsyncs only (see `FileStore.writeIfAbsentThenWrite`'s `deferThen`).
   */
  readonly rebuildable?: boolean;
}

/**
 * The local store's `writeIfAbsentThenWrite`: the EventLog's append (the claim `<dir>/.slots/n.json`,
 * then the event file `<dir>/event-….json`) under one walk from the root. The same steps as the two
 * calls, with the same confinement (every directory opened from the root, one component at a time,
 * `O_NOFOLLOW`, at this call) and the same atomicity: the claim is a temp file hard-linked at its name,
 * the event file a temp file renamed over its name, and the event file is published only after the
 * claim exists. Saved: the second walk from the root (an `open` and a `close` per directory level).
 *
 * With `'fsync'` the claim's temp file is fsynced before it is linked (so no power loss can leave the
 * claim's name without its content), and the claim directory is fsynced after the link; only then is the
 * event file renamed into place, so a crash never leaves the event file on disk without its claim. The
 * event file's temp is written meanwhile (removed when the claim is not won). Without `rebuildable` it is
 * fsynced at the same time as the claim's, and the event directory after the rename: every fsync of the
 * two calls, two of them overlapping. With `rebuildable`, neither: the append waits for the floor's two
 * fsyncs (a file, then its directory), and the event file reaches the disk with the kernel's writeback.
 */
export async function writeIfAbsentThenWriteLocal(
  deps: LocalWritePairDeps,
  first: StoreWrite,
  then: StoreWrite,
  onCreated: () => void,
  options: LocalWritePairOptions = {},
): Promise<boolean> {
  const { onVersions, rebuildable = false } = options;
  const claim = deps.fileKey(first.path);
  const file = deps.fileKey(then.path);
  const below = claimSegmentsBelow(file.segments, claim.segments);
  if (below === undefined) {
    // Not the EventLog's layout (the claim is not at or below the file's directory): the two calls.
    if (!(await deps.writeIfAbsent(first.path, first.data))) return false;
    onCreated();
    await deps.write(then.path, then.data);
    return true;
  }
  for (let attempt = 0; ; attempt++) {
    let directory: DirectoryHandle | undefined;
    let eventTemp: string | undefined;
    let created = false;
    let operation = 'writeIfAbsent';
    let versionBefore: string | undefined;
    try {
      directory = (await openDirectory(deps.root, file.segments, {
        create: true,
        durable: deps.durable,
        storePath: then.path,
        sync: true,
      }))!;
      // Before the claim's directory is opened (it may be created): the event directory as the caller knew it.
      if (onVersions !== undefined) versionBefore = await versionOf(directory);
      const claimDirectory = (await openDirectory(borrowedRoot(deps.root, directory), below, {
        create: true,
        durable: deps.durable,
        storePath: first.path,
        sync: true,
        above: file.segments,
      }))!;
      try {
        let claimTemp: string;
        if (deps.durable) {
          // The claim's temp is written, and its fsync sent to the thread pool; the event file's is written
          // meanwhile and fsynced at the same time (one fsync's wait, not two) or, when rebuildable, not at all.
          const [claimWrite, eventWrite] = await Promise.allSettled([
            deps.writeTemp(claimDirectory, claim.name, first.data),
            deps.writeTemp(directory, file.name, then.data, !rebuildable),
          ]);
          if (eventWrite.status === 'fulfilled') eventTemp = eventWrite.value;
          if (claimWrite.status === 'rejected') throw claimWrite.reason;
          claimTemp = claimWrite.value;
          if (eventWrite.status === 'rejected') {
            await unlink(claimTemp).catch(() => undefined);
            operation = 'write';
            throw eventWrite.reason;
          }
        } else {
          claimTemp = await deps.writeTemp(claimDirectory, claim.name, first.data);
        }
        const target = `${claimDirectory.path}/${claim.name}`;
        if (deps.durable) {
          created = await linkDurably(claimTemp, target, claimDirectory);
        } else {
          try {
            await deps.linkThenRemove(claimTemp, target);
            created = true;
          } catch (error) {
            if (errnoCode(error) !== 'EEXIST') throw error;
          }
        }
      } finally {
        await claimDirectory.close();
      }
    } catch (error) {
      if (eventTemp !== undefined) await unlink(eventTemp).catch(() => undefined);
      await directory?.close();
      // Creating a name in a directory removed after we opened it fails with ENOENT: once more.
      if (created || errnoCode(error) !== 'ENOENT' || attempt > 0) {
        const [path, location] = operation === 'write' ? [then.path, file.location] : [first.path, claim.location];
        throw deps.fail(error, operation, path, location);
      }
      continue;
    }
    if (!created) {
      // The claim was taken: nothing of this call is left behind.
      if (eventTemp !== undefined) await unlink(eventTemp).catch(() => undefined);
      await directory.close();
      return false;
    }
    try {
      onCreated();
    } catch (error) {
      if (eventTemp !== undefined) await unlink(eventTemp).catch(() => undefined);
      await directory.close();
      throw error;
    }
    const reportAfter =
      onVersions === undefined || versionBefore === undefined
        ? undefined
        : (after: string) => onVersions(versionBefore as string, after);
    return publish(deps, directory, eventTemp, file, then, { reportAfter, synced: deps.durable && !rebuildable });
  }
}

/**
 * `link(temp, target)`, then the temp's removal alongside the directory's fsync (a temp name left by a
 * crash is only a leftover `list` clears; the link is what must be on disk). False when `target` exists.
 */
async function linkDurably(temp: string, target: string, directory: DirectoryHandle): Promise<boolean> {
  let linkError: unknown;
  try {
    linkSync(temp, target);
  } catch (error) {
    linkError = error;
  }
  if (linkError !== undefined) {
    removeQuietly(temp);
    if (errnoCode(linkError) === 'EEXIST') return false;
    throw linkError;
  }
  const synced = syncDirectory(directory);
  removeQuietly(temp);
  await synced;
  return true;
}

/** Removes a temp file with a synchronous call, ignoring failure (a leftover temp name is cleared by `list`). */
function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or left for `list` to clear.
  }
}

/**
 * Writes the second file in the directory already open (then closes it); once more through `write` if it was
 * removed. `synced`: its directory is fsynced after the rename (else the rename is a synchronous call).
 */
async function publish(
  deps: LocalWritePairDeps,
  directory: DirectoryHandle,
  eventTemp: string | undefined,
  file: LocalFileKey,
  then: StoreWrite,
  options: { reportAfter?: ((after: string) => void) | undefined; synced: boolean },
): Promise<boolean> {
  const { reportAfter, synced } = options;
  try {
    const temp = eventTemp ?? (await deps.writeTemp(directory, file.name, then.data, synced));
    await deps.replaceWith(temp, `${directory.path}/${file.name}`, !synced);
    if (synced) await syncDirectory(directory);
    const after = reportAfter === undefined ? undefined : await versionOf(directory);
    if (after !== undefined) reportAfter?.(after);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw deps.fail(error, 'write', then.path, file.location);
    // The directory was removed (and maybe made again) since it was opened: `write` walks afresh.
    await deps.write(then.path, then.data);
  } finally {
    await directory.close();
  }
  return true;
}

/**
 * The listing version of an open directory, or undefined when it cannot be read (then nothing is reported).
 * An `fstat`: a synchronous call, as for the directories' opens (microseconds, less than a thread-pool trip).
 */
export async function versionOf(directory: DirectoryHandle): Promise<string | undefined> {
  try {
    return await directoryVersion(directory, { sync: true, settled: false });
  } catch {
    return undefined;
  }
}

/** The claim's directory segments below the file's directory, or undefined when it is not there. */
export function claimSegmentsBelow(
  fileSegments: readonly string[],
  claimSegments: readonly string[],
): string[] | undefined {
  if (claimSegments.length < fileSegments.length) return undefined;
  for (let i = 0; i < fileSegments.length; i++) if (claimSegments[i] !== fileSegments[i]) return undefined;
  return claimSegments.slice(fileSegments.length);
}

/** `directory` as the starting point of `openDirectory`, which must not close it (the caller still uses it). */
export function borrowedRoot(root: ConfinedRoot, directory: DirectoryHandle): ConfinedRoot {
  return {
    realPath: root.realPath,
    handle: { path: directory.path, fd: directory.fd, close: async () => undefined },
  };
}
