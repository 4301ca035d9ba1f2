import { mkdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { WorkspacePathError } from '../paths/workspace-path-error.js';
import { CHECKPOINT_MODE_BITS, type CheckpointManifest, checkRestorableTree } from './checkpoint-manifest.js';
import type { CheckpointStore } from './checkpoint-store.js';
import {
  makeWorkspaceDirectory,
  pruneEmptyParents,
  removeEmptyDirectory,
  removeWorkspaceEntry,
  setDirectoryMode,
  writeWorkspaceFile,
  writeWorkspaceSymlink,
} from './internal/confined-entries.js';
import { snapshotWorkspace } from './workspace-snapshot.js';

/** What a restore changed. */
export interface RestoreResult {
  written: string[];
  removed: string[];
}

/**
 * Makes `workspace` hold exactly the files of `target`: writes what differs, removes what the checkpoint did not
 * have (leaving `.git` and the files the checkpoint could not read alone). Every blob needed is read and verified
 * before the first file is touched, so a damaged store (`CheckpointDamagedError`) leaves the workspace as it was;
 * so is every path of `target`, which must stay inside the workspace (see `checkRestorableTree`). Each file is
 * then written through its parent's verified descriptor, never through a link (see `internal/confined-entries`):
 * the agent's background processes may still be changing the workspace. `current` is the workspace's latest
 * manifest, whose stats (size, times, inode) spare rehashing unchanged files. A missing workspace is made, with the
 * directories above it unless `parents` is false: then a missing parent is a `WorkspacePathError` (`missing`).
 */
export async function restoreWorkspace(options: {
  workspace: string;
  target: CheckpointManifest;
  objects: CheckpointStore;
  current?: CheckpointManifest;
  /** Make the missing directories above the workspace too (default true). */
  parents?: boolean;
}): Promise<RestoreResult> {
  const { workspace, target, objects } = options;
  checkRestorableTree(target);
  await makeWorkspace(workspace, options.parents ?? true);
  const root = await realpath(workspace);
  const now = await snapshotWorkspace(workspace, options.current);
  const present = new Map(now.files.map((file) => [file.path, file]));
  const presentLinks = new Map(now.symlinks.map((link) => [link.path, link.target]));
  const kept = new Set(target.skipped.map((file) => file.path));

  const toWrite = target.files.filter((file) => {
    const existing = present.get(file.path);
    return (
      existing === undefined || existing.sha256 !== file.sha256 || existing.mode !== (file.mode & CHECKPOINT_MODE_BITS)
    );
  });
  const toLink = target.symlinks.filter((link) => presentLinks.get(link.path) !== link.target);
  const wanted = new Set([...target.files.map((file) => file.path), ...target.symlinks.map((link) => link.path)]);
  const toRemove = [...present.keys(), ...presentLinks.keys()].filter((path) => !wanted.has(path) && !kept.has(path));

  const contents = await objects.getBlobs(toWrite.map((file) => file.sha256));

  // A tree that records its directories keeps exactly those (empty ones included, each with its mode); an older one
  // has none to keep, and the directories its removals leave empty are pruned.
  const directories = target.directories;
  const wantedDirectories = new Set(directories?.map((directory) => directory.path));
  for (const path of toRemove) await removeWorkspaceEntry(root, path);
  for (const path of toRemove) await pruneEmptyParents(root, path, wantedDirectories);
  if (directories !== undefined) {
    const unwanted = (now.directories ?? []).filter((directory) => !wantedDirectories.has(directory.path));
    // Deepest first, each only when empty: one holding what the checkpoint could not read (or `.git`) stays.
    for (const { path } of unwanted.reverse()) await removeEmptyDirectory(root, path);
    for (const { path } of directories) await makeWorkspaceDirectory(root, path);
  }
  for (const [index, file] of toWrite.entries()) {
    await writeWorkspaceFile(root, file.path, { content: contents[index]!, mode: file.mode, mtimeMs: file.mtime_ms });
  }
  for (const link of toLink) await writeWorkspaceSymlink(root, link.path, link.target);
  if (directories !== undefined) {
    // Modes last, deepest first: a directory made read-only must first have received its files.
    const modes = new Map((now.directories ?? []).map((directory) => [directory.path, directory.mode]));
    for (const { path, mode } of [...directories].reverse()) {
      if (modes.get(path) !== (mode & CHECKPOINT_MODE_BITS)) await setDirectoryMode(root, path, mode);
    }
  }
  return { written: [...toWrite.map((file) => file.path), ...toLink.map((link) => link.path)], removed: toRemove };
}

async function makeWorkspace(workspace: string, parents: boolean): Promise<void> {
  if (parents) {
    await mkdir(workspace, { recursive: true });
    return;
  }
  try {
    await mkdir(workspace);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT') throw error;
    throw new WorkspacePathError(workspace, `the directory ${dirname(workspace)} it lies in does not exist`, {
      cause: error,
      problem: 'missing',
    });
  }
}
