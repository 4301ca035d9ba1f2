import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CheckpointDamagedError } from './errors/checkpoint-damaged-error.js';

/**
 * The permission bits a checkpoint keeps and a restore gives back: never setuid or setgid. A restore writes files
 * with the server's own identity, outside the sandbox; a set-id bit the agent gave its file (or a hostile
 * manifest names) would make the server create a set-id program of the agent's choosing on the host.
 */
export const CHECKPOINT_MODE_BITS = 0o1777;

/** One regular file of a workspace checkpoint. */
export const checkpointFileSchema = z.object({
  /** Path relative to the workspace, `/`-separated. */
  path: z.string().min(1),
  /** SHA-256 of the content, hex: the blob's name in the object store. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
  /** Modification time when captured; a restore gives it back. */
  mtime_ms: z.number(),
  /**
   * Status-change time when captured. With `ino`, what a later capture trusts the hash by (with size and mtime):
   * the kernel sets it on every write, chmod or `utimes`, and no call sets it back, whereas the agent's tools can
   * put an mtime back (`touch -r`) after rewriting a file with the same size. Absent in older trees: rehashed.
   */
  ctime_ms: z.number().optional(),
  /** Inode number when captured: a file renamed over the path is another file, whatever its times say. */
  ino: z.number().nonnegative().optional(),
  /** Permission bits (e.g. 0o755 for an executable); set-id bits are dropped (`CHECKPOINT_MODE_BITS`). */
  mode: z.number().int().nonnegative(),
});
export type CheckpointFile = z.infer<typeof checkpointFileSchema>;

/** A file that could not be read when the checkpoint was taken: left as it is on restore. */
export const skippedFileSchema = z.object({ path: z.string(), reason: z.string() });
export type SkippedFile = z.infer<typeof skippedFileSchema>;

/** One directory below the workspace root: restored with its mode, empty or not. */
export const checkpointDirectorySchema = z.object({
  /** Path relative to the workspace, `/`-separated. */
  path: z.string().min(1),
  /** Permission and sticky bits (e.g. 0o700 for a private directory); set-id bits are dropped. */
  mode: z.number().int().nonnegative(),
});
export type CheckpointDirectory = z.infer<typeof checkpointDirectorySchema>;

/** The tree of one workspace checkpoint: every file (sorted by path) and symbolic link, and every directory. */
export const checkpointManifestSchema = z.object({
  version: z.literal(1),
  /** When the walk started (epoch ms): a later walk trusts a file's stat only if it last changed well before that. */
  taken_ms: z.number().optional(),
  files: z.array(checkpointFileSchema),
  symlinks: z.array(z.object({ path: z.string().min(1), target: z.string() })),
  skipped: z.array(skippedFileSchema),
  /**
   * Every directory below the root that could be listed (sorted by path), so a restore makes empty ones and gives
   * each its mode. Absent in trees taken before directories were recorded: those restore files and links only, and
   * prune the directories left empty.
   */
  directories: z.array(checkpointDirectorySchema).optional(),
});
export type CheckpointManifest = z.infer<typeof checkpointManifestSchema>;

/**
 * The checkpoint id: SHA-256 of the tree's content (paths, hashes, modes, links), not of the mtimes, so an
 * unchanged workspace has the same id at every step and two conversations share ids for the same files.
 */
export function checkpointId(manifest: CheckpointManifest): string {
  const hash = createHash('sha256');
  for (const file of manifest.files) hash.update(`f\0${file.path}\0${file.sha256}\0${file.mode}\n`);
  for (const link of manifest.symlinks) hash.update(`l\0${link.path}\0${link.target}\n`);
  // Absent (an older tree) hashes as before, so the trees stored then keep their ids.
  for (const directory of manifest.directories ?? []) hash.update(`d\0${directory.path}\0${directory.mode}\n`);
  return hash.digest('hex');
}

/**
 * Refuses a tree a restore must not follow: a path that is not a plain relative one (absolute, empty, `.` or `..`
 * segments, a NUL byte), or an entry below another file or link of the tree (`link/x` would be written through the
 * link). A snapshot never makes one; a tree read from a store someone else can write may hold one. Before any file
 * is touched: `CheckpointDamagedError` naming the path.
 */
export function checkRestorableTree(manifest: CheckpointManifest): void {
  const leaves = new Set<string>();
  for (const entry of [...manifest.files, ...manifest.symlinks]) {
    if (leaves.has(entry.path)) refuse(manifest, entry.path, 'it is listed twice');
    leaves.add(entry.path);
  }
  const directories = manifest.directories ?? [];
  const seen = new Set<string>();
  for (const { path } of directories) {
    if (leaves.has(path) || seen.has(path)) refuse(manifest, path, 'it is listed twice');
    seen.add(path);
  }
  // A skipped '' is an unreadable workspace root: nothing to restore there.
  const skipped = manifest.skipped.filter((entry) => entry.path !== '');
  for (const { path } of [...manifest.files, ...manifest.symlinks, ...skipped, ...directories]) {
    const segments = path.split('/');
    if (path.includes('\0') || segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
      refuse(manifest, path, 'it is not a relative path inside the workspace');
    }
    for (let depth = 1; depth < segments.length; depth++) {
      const above = segments.slice(0, depth).join('/');
      if (leaves.has(above)) refuse(manifest, path, `it lies below the file or link '${above}'`);
    }
  }
}

function refuse(manifest: CheckpointManifest, path: string, reason: string): never {
  throw new CheckpointDamagedError(
    `checkpoint ${checkpointId(manifest)}`,
    `its path ${JSON.stringify(path)} cannot be restored: ${reason}`,
  );
}
