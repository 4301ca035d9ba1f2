import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { realpath } from 'node:fs/promises';
import {
  CHECKPOINT_MODE_BITS,
  type CheckpointDirectory,
  type CheckpointFile,
  type CheckpointManifest,
  type SkippedFile,
} from './checkpoint-manifest.js';
import {
  type ListedEntry,
  listDirectory,
  type ReadWorkspaceFile,
  readWorkspaceFile,
} from './internal/confined-entries.js';

/**
 * Directories a checkpoint leaves out, at any depth: `.git` has its own history (restoring it would rewrite refs
 * and the index under the user), and `.x-checkpoints` is the store itself when a conversation lives in its workspace.
 */
export const IGNORED_NAMES: ReadonlySet<string> = new Set(['.git', '.x-checkpoints']);

const CONCURRENCY = 64;
const RACY_MS = 2000;

/**
 * Walks `workspace` and describes every regular file and symbolic link. A file whose size, mtime, ctime and inode
 * match `previous` keeps its hash unread, so a step that changed nothing costs one stat per file. A file that cannot
 * be read (permissions, vanished mid-walk) is listed in `skipped` with the reason rather than failing the step.
 * `onContent` receives each file read (its hash and bytes) so the caller stores blobs without a second read.
 * Directories are listed and files read through descriptors verified to lie inside the workspace, never through a
 * link (`internal/confined-entries`): a directory the agent swaps for a link mid-walk cannot bring a host file in.
 */
export async function snapshotWorkspace(
  workspace: string,
  previous: CheckpointManifest | undefined,
  onContent: (sha256: string, content: Uint8Array) => Promise<void> = async () => undefined,
): Promise<CheckpointManifest> {
  const known = new Map(previous?.files.map((file) => [file.path, file]));
  const files: CheckpointFile[] = [];
  const symlinks: CheckpointManifest['symlinks'] = [];
  const skipped: SkippedFile[] = [];
  const root = await realpath(workspace).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const directories: CheckpointDirectory[] = [];
  const entries = root === undefined ? [] : await walk(root, '', { skipped, directories });
  const takenMs = Date.now();
  // The mtime alone is the agent's to set (`touch -r` after a same-size rewrite); the ctime is not, and any write,
  // chmod or utimes moves it. Yet a write in the same clock tick as the one hashed leaves it unchanged (git's
  // "racy" files), so it is trusted only when it was older than the clock's granularity when `previous` was taken.
  const unchanged = (cached: CheckpointFile, info: Stats) =>
    cached.size === info.size &&
    cached.mtime_ms === info.mtimeMs &&
    cached.ctime_ms === info.ctimeMs &&
    cached.ino === info.ino &&
    previous?.taken_ms !== undefined &&
    previous.taken_ms - info.ctimeMs > RACY_MS;

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const { path, info, target } = entries[next++]!;
      if (target !== undefined) {
        symlinks.push({ path, target });
        continue;
      }
      if (!info.isFile()) continue;
      const cached = known.get(path);
      if (cached !== undefined && unchanged(cached, info)) {
        files.push({ ...cached, mode: info.mode & CHECKPOINT_MODE_BITS });
        continue;
      }
      let loaded: ReadWorkspaceFile;
      try {
        const read = await readWorkspaceFile(root!, path);
        // Gone between the listing and the read: it is simply not part of this checkpoint.
        if (read === undefined) continue;
        loaded = read;
      } catch (error) {
        skipped.push({ path, reason: (error as Error).message });
        continue;
      }
      // Outside the read's try: a failure to store the blob is the store's (a full disk), not the file's.
      const { content, ...stated } = loaded;
      const sha256 = createHash('sha256').update(content).digest('hex');
      await onContent(sha256, content);
      files.push({ path, sha256, size: content.length, ...stated });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return {
    version: 1,
    taken_ms: takenMs,
    files: files.sort(byPath),
    symlinks: symlinks.sort(byPath),
    skipped: skipped.sort(byPath),
    directories: directories.sort(byPath),
  };
}

/** A non-directory entry of the workspace, as the walk saw it. */
interface WalkedEntry {
  path: string;
  info: Stats;
  target?: string;
}

/**
 * Every non-directory entry under `dir` (paths relative, `/`-separated), looked at through verified descriptors;
 * unreadable directories and entries go to `skipped`, the directories listed (with their modes) to `directories`.
 */
async function walk(
  root: string,
  dir: string,
  found: { skipped: SkippedFile[]; directories: CheckpointDirectory[] },
  mode?: number,
): Promise<WalkedEntry[]> {
  const { skipped } = found;
  let listed: ListedEntry[];
  try {
    listed = await listDirectory(root, dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = (error as { problem?: string }).problem;
    if (code === 'ENOENT' || problem === 'missing' || (dir === '' && problem === 'not_regular')) return [];
    skipped.push({ path: dir, reason: (error as Error).message });
    return [];
  }
  if (dir !== '' && mode !== undefined) found.directories.push({ path: dir, mode });
  const entries: WalkedEntry[] = [];
  const subdirectories: { path: string; mode: number }[] = [];
  for (const entry of listed) {
    if (IGNORED_NAMES.has(entry.name)) continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if ('error' in entry) skipped.push({ path, reason: entry.error.message });
    else if (entry.info.isDirectory()) subdirectories.push({ path, mode: entry.info.mode & CHECKPOINT_MODE_BITS });
    else entries.push({ path, info: entry.info, ...(entry.target === undefined ? {} : { target: entry.target }) });
  }
  for (const subdirectory of subdirectories) {
    entries.push(...(await walk(root, subdirectory.path, found, subdirectory.mode)));
  }
  return entries;
}
