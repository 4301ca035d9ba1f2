import { chmod, mkdir, rm, rmdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CheckpointManifest } from './checkpoint-manifest.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { snapshotWorkspace } from './workspace-snapshot.js';

/** What a restore changed. */
export interface RestoreResult {
  written: string[];
  removed: string[];
}

/**
 * Makes `workspace` hold exactly the files of `target`: writes what differs, removes what the checkpoint did not
 * have (leaving `.git` and the files the checkpoint could not read alone). Every blob needed is read and verified
 * before the first file is touched, so a damaged store (`CheckpointDamagedError`) leaves the workspace as it was.
 * `current` is the workspace's latest manifest, whose size and mtime spare rehashing unchanged files.
 */
export async function restoreWorkspace(options: {
  workspace: string;
  target: CheckpointManifest;
  objects: CheckpointStore;
  current?: CheckpointManifest;
}): Promise<RestoreResult> {
  const { workspace, target, objects } = options;
  await mkdir(workspace, { recursive: true });
  const now = await snapshotWorkspace(workspace, options.current);
  const present = new Map(now.files.map((file) => [file.path, file]));
  const presentLinks = new Map(now.symlinks.map((link) => [link.path, link.target]));
  const kept = new Set(target.skipped.map((file) => file.path));

  const toWrite = target.files.filter((file) => {
    const existing = present.get(file.path);
    return existing === undefined || existing.sha256 !== file.sha256 || existing.mode !== file.mode;
  });
  const toLink = target.symlinks.filter((link) => presentLinks.get(link.path) !== link.target);
  const wanted = new Set([...target.files.map((file) => file.path), ...target.symlinks.map((link) => link.path)]);
  const toRemove = [...present.keys(), ...presentLinks.keys()].filter((path) => !wanted.has(path) && !kept.has(path));

  const contents = await objects.getBlobs(toWrite.map((file) => file.sha256));

  for (const path of toRemove) await rm(join(workspace, path), { force: true });
  for (const path of toRemove) await pruneEmptyParents(workspace, path);
  for (const [index, file] of toWrite.entries()) {
    const absolute = join(workspace, file.path);
    await prepareParent(workspace, file.path);
    // A directory (or link) where the file goes: replaced, as the checkpoint had a file there.
    await rm(absolute, { recursive: true, force: true });
    await writeFile(absolute, contents[index]!, { mode: file.mode });
    await chmod(absolute, file.mode);
    const seconds = file.mtime_ms / 1000;
    await utimes(absolute, seconds, seconds);
  }
  for (const link of toLink) {
    const absolute = join(workspace, link.path);
    await prepareParent(workspace, link.path);
    await rm(absolute, { recursive: true, force: true });
    await symlink(link.target, absolute);
  }
  return { written: [...toWrite.map((file) => file.path), ...toLink.map((link) => link.path)], removed: toRemove };
}

/** Creates the parent directories of `path`, removing a file that stands where one of them goes. */
async function prepareParent(workspace: string, path: string): Promise<void> {
  const parent = dirname(path);
  if (parent === '.') return;
  try {
    await mkdir(join(workspace, parent), { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') {
      throw error;
    }
    const segments = parent.split('/');
    for (let depth = 1; depth <= segments.length; depth++) {
      const prefix = join(workspace, ...segments.slice(0, depth));
      await mkdir(prefix).catch(async (inner: NodeJS.ErrnoException) => {
        if (inner.code !== 'EEXIST') throw inner;
        await rm(prefix, { force: true }).catch(() => undefined);
        await mkdir(prefix).catch(() => undefined);
      });
    }
  }
}

/** Removes the directories a removal emptied, up to the workspace (which stays). */
async function pruneEmptyParents(workspace: string, path: string): Promise<void> {
  for (let parent = dirname(path); parent !== '.'; parent = dirname(parent)) {
    try {
      await rmdir(join(workspace, parent));
    } catch {
      return;
    }
  }
}
