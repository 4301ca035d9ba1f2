import { linkSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { StoreError } from '../errors.js';
import type { StoreWrite } from '../file-store.js';
import { type DirectoryHandle, openDirectory, syncDirectory } from './confined-directory.js';
import { errnoCode } from './local-fs.js';
import {
  borrowedRoot,
  claimSegmentsBelow,
  type LocalWritePairDeps,
  type LocalWritePairOptions,
  versionOf,
  writeIfAbsentThenWriteLocal,
} from './local-write-pair.js';

/** One claim and the file it commits (see `FileStore.writeIfAbsentThenWriteMany`). */
export interface WritePair {
  readonly first: StoreWrite;
  readonly second: StoreWrite;
}

/**
 * The local store's `writeIfAbsentThenWriteMany`: `writeIfAbsentThenWrite` for each pair in order, stopping
 * at the first claim that exists, under one walk from the root and with the fsyncs shared. With `'fsync'`:
 * every temp file written and fsynced at once; the claims linked in order; one fsync of the claim directory;
 * the event files renamed in order; one fsync of the event directory. So a batch waits for the fsyncs one
 * pair waits for, and a crash still never leaves an event file on disk without its claim (every claim's
 * directory fsync precedes every rename). With `rebuildable` (see `writeIfAbsentThenWriteLocal`) the event
 * files and their directory are not fsynced. Pairs whose files are not in one claim directory and one event
 * directory (not the EventLog's layout) are written one call at a time.
 */
export async function writeIfAbsentThenWriteManyLocal(
  deps: LocalWritePairDeps,
  pairs: readonly WritePair[],
  onCreated: (index: number) => void,
  options: LocalWritePairOptions = {},
): Promise<number> {
  if (pairs.length === 0) return 0;
  // With 'fsync', whether the event files are fsynced (they are not when the caller can rebuild them).
  const syncFiles = deps.durable && options.rebuildable !== true;
  const claims = pairs.map((pair) => deps.fileKey(pair.first.path));
  const files = pairs.map((pair) => deps.fileKey(pair.second.path));
  const below = claimSegmentsBelow(files[0]!.segments, claims[0]!.segments);
  const sameDirectories =
    below !== undefined &&
    claims.every((claim) => sameSegments(claim.segments, claims[0]!.segments)) &&
    files.every((file) => sameSegments(file.segments, files[0]!.segments));
  if (!sameDirectories) return oneAtATime(deps, pairs, onCreated, options);

  let directory: DirectoryHandle | undefined;
  let claimDirectory: DirectoryHandle | undefined;
  const claimTemps: (string | undefined)[] = [];
  const fileTemps: (string | undefined)[] = [];
  const removeTemps = (temps: (string | undefined)[]) =>
    Promise.all(temps.map((temp) => (temp === undefined ? undefined : unlink(temp).catch(() => undefined))));
  let created = 0;
  let versionBefore: string | undefined;
  // What the store call in progress was, for the error (as writeIfAbsent or write would report it).
  let failing = { operation: 'writeIfAbsent', i: 0 };
  try {
    directory = (await openDirectory(deps.root, files[0]!.segments, {
      create: true,
      durable: deps.durable,
      storePath: pairs[0]!.second.path,
      sync: true,
    }))!;
    if (options.onVersions !== undefined) versionBefore = await versionOf(directory);
    claimDirectory = (await openDirectory(borrowedRoot(deps.root, directory), below, {
      create: true,
      durable: deps.durable,
      storePath: pairs[0]!.first.path,
      sync: true,
      above: files[0]!.segments,
    }))!;
    // Every temp file first (with 'fsync', all written and fsynced at once: one fsync's wait; event files
    // that are not fsynced are written with synchronous calls while the claims' go through the thread pool).
    const writes = pairs.flatMap((pair, i) => [
      { kind: 'claim' as const, i, run: () => deps.writeTemp(claimDirectory!, claims[i]!.name, pair.first.data) },
      {
        kind: 'file' as const,
        i,
        run: () => deps.writeTemp(directory!, files[i]!.name, pair.second.data, syncFiles),
      },
    ]);
    const results = deps.durable
      ? await Promise.allSettled(writes.map((write) => write.run()))
      : await sequentially(writes.map((write) => write.run));
    let failure: { error: unknown; kind: 'claim' | 'file'; i: number } | undefined;
    results.forEach((result, k) => {
      const { kind, i } = writes[k]!;
      if (result.status === 'fulfilled') (kind === 'claim' ? claimTemps : fileTemps)[i] = result.value;
      else failure ??= { error: result.reason, kind, i };
    });
    if (failure !== undefined) {
      failing = { operation: failure.kind === 'claim' ? 'writeIfAbsent' : 'write', i: failure.i };
      throw failure.error;
    }
    // The claims in order, until one is taken.
    for (let i = 0; i < pairs.length; i++) {
      failing = { operation: 'writeIfAbsent', i };
      const target = `${claimDirectory.path}/${claims[i]!.name}`;
      try {
        if (deps.durable) {
          linkSync(claimTemps[i]!, target);
        } else {
          const temp = claimTemps[i]!;
          claimTemps[i] = undefined;
          await deps.linkThenRemove(temp, target);
        }
        created++;
      } catch (error) {
        if (errnoCode(error) === 'EEXIST') break;
        throw error;
      }
    }
    const removed = removeTemps(claimTemps.splice(0));
    if (created > 0 && deps.durable) await syncDirectory(claimDirectory);
    await removed;
  } catch (error) {
    await removeTemps([...claimTemps, ...fileTemps]);
    await claimDirectory?.close();
    await directory?.close();
    // A directory removed since it was opened (ENOENT) before anything was created: one at a time, afresh.
    if (created === 0 && errnoCode(error) === 'ENOENT') return oneAtATime(deps, pairs, onCreated, options);
    if (StoreError.isInstance(error)) throw error;
    const { operation, i } = failing;
    const [path, location] =
      operation === 'write' ? [pairs[i]!.second.path, files[i]!.location] : [pairs[i]!.first.path, claims[i]!.location];
    throw deps.fail(error, operation, path, location);
  }
  await claimDirectory.close();
  await removeTemps(fileTemps.splice(created));
  if (created === 0) {
    await directory.close();
    return 0;
  }
  for (let i = 0; i < created; i++) onCreated(i);
  // The event files, only now that every claim they need is on disk.
  try {
    for (let i = 0; i < created; i++) {
      await deps.replaceWith(fileTemps[i]!, `${directory.path}/${files[i]!.name}`, !syncFiles);
      fileTemps[i] = undefined;
    }
    if (syncFiles) await syncDirectory(directory);
    if (options.onVersions !== undefined && versionBefore !== undefined) {
      const after = await versionOf(directory);
      if (after !== undefined) options.onVersions(versionBefore, after);
    }
  } catch (error) {
    await removeTemps(fileTemps);
    if (errnoCode(error) !== 'ENOENT') {
      const i = fileTemps.findIndex((temp) => temp !== undefined);
      const at = i < 0 ? created - 1 : i;
      throw deps.fail(error, 'write', pairs[at]!.second.path, files[at]!.location);
    }
    // The directory was removed (and maybe made again) since it was opened: `write` walks afresh.
    for (let i = 0; i < created; i++) await deps.write(pairs[i]!.second.path, pairs[i]!.second.data);
  } finally {
    await directory.close();
  }
  return created;
}

/** The pairs through `writeIfAbsentThenWrite`, in order, until a claim is taken. */
async function oneAtATime(
  deps: LocalWritePairDeps,
  pairs: readonly WritePair[],
  onCreated: (index: number) => void,
  options: LocalWritePairOptions,
): Promise<number> {
  const { rebuildable } = options;
  for (let i = 0; i < pairs.length; i++) {
    const { first, second } = pairs[i]!;
    if (!(await writeIfAbsentThenWriteLocal(deps, first, second, () => onCreated(i), { rebuildable }))) return i;
  }
  return pairs.length;
}

async function sequentially<T>(runs: readonly (() => Promise<T>)[]): Promise<PromiseSettledResult<T>[]> {
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

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}
