// A snapshot given the previous one trusts a file's hash by its stat (size, mtime, ctime, inode) only when the file
// was older than the clock's granularity when that one was taken ("racy" files are read again), and a missing
// workspace is empty.
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckpointManifest } from './checkpoint-manifest.js';
import { snapshotWorkspace } from './workspace-snapshot.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const FAKE = 'f'.repeat(64);
const MTIME_MS = 1_700_000_000_000;

/**
 * A workspace with `names` (same content), each with mtime MTIME_MS; and a previous manifest claiming FAKE hashes
 * for their stats as they are, taken `takenAfterChange` ms after their last status change.
 */
async function withPrevious(names: string[], takenAfterChange: number | undefined) {
  const workspace = await mkdtemp(join(tmpdir(), 'x-snapshot-'));
  dirs.push(workspace);
  for (const name of names) {
    await writeFile(join(workspace, name), 'content');
    await utimes(join(workspace, name), MTIME_MS / 1000, MTIME_MS / 1000);
  }
  const stats = await Promise.all(names.map((name) => stat(join(workspace, name))));
  const lastChange = Math.max(...stats.map((info) => info.ctimeMs));
  const previous: CheckpointManifest = {
    version: 1,
    ...(takenAfterChange === undefined ? {} : { taken_ms: lastChange + takenAfterChange }),
    files: names.map((path, index) => {
      const { size, ctimeMs, ino } = stats[index]!;
      return { path, sha256: FAKE, size, mtime_ms: MTIME_MS, ctime_ms: ctimeMs, ino, mode: 0o600 };
    }),
    symlinks: [],
    skipped: [],
  };
  return { workspace, previous };
}

async function readAgain(workspace: string, previous: CheckpointManifest) {
  const read: string[] = [];
  const manifest = await snapshotWorkspace(workspace, previous, async (sha256) => {
    read.push(sha256);
  });
  return { manifest, read };
}

describe('snapshotWorkspace with the previous snapshot', () => {
  it('keeps the hash of a file unchanged since, older than the clock granularity, without reading it', async () => {
    const { workspace, previous } = await withPrevious(['a.txt'], 2001);
    const { manifest, read } = await readAgain(workspace, previous);
    expect(read).toEqual([]);
    // The hash as it was; the mode as it is now.
    expect(manifest.files).toEqual([{ ...previous.files[0]!, mode: 0o644 }]);
  });

  it('reads again a file changed in size or mtime, or as new as the clock granularity', async () => {
    for (const takenAfterChange of [2000, 0, undefined]) {
      const { workspace, previous } = await withPrevious(['a.txt'], takenAfterChange);
      const { manifest, read } = await readAgain(workspace, previous);
      expect(read).toHaveLength(1);
      expect(manifest.files.map((file) => file.sha256)).toEqual(read);
      // The size read, which the next snapshot compares.
      expect(manifest.files[0]!.size).toBe(Buffer.byteLength('content'));
    }
    const { workspace, previous } = await withPrevious(['size.txt', 'mtime.txt'], 5000);
    await writeFile(join(workspace, 'size.txt'), 'longer content');
    await utimes(join(workspace, 'size.txt'), MTIME_MS / 1000, MTIME_MS / 1000);
    await utimes(join(workspace, 'mtime.txt'), MTIME_MS / 1000 + 1, MTIME_MS / 1000 + 1);
    const { manifest, read } = await readAgain(workspace, previous);
    expect(read).toHaveLength(2);
    expect(manifest.files.map((file) => file.sha256)).not.toContain(FAKE);
  });
});

describe('snapshotWorkspace of a workspace that is not there', () => {
  it('is empty when it does not exist or is a file, and fails when it cannot be resolved', async () => {
    const base = await mkdtemp(join(tmpdir(), 'x-snapshot-'));
    dirs.push(base);
    const missing = await snapshotWorkspace(join(base, 'missing'), undefined);
    expect(missing).toMatchObject({ version: 1, files: [], symlinks: [], skipped: [] });
    await writeFile(join(base, 'file'), 'not a directory');
    expect(await snapshotWorkspace(join(base, 'file'), undefined)).toMatchObject({ files: [], skipped: [] });
    await expect(snapshotWorkspace(join(base, 'file', 'below'), undefined)).rejects.toMatchObject({ code: 'ENOTDIR' });
  });
});
