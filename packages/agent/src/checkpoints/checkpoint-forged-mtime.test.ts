// The agent's tools can rewrite a file with the same size and put its mtime back (`touch -r`, `utimes`): a snapshot
// or a restore that trusted size and mtime would keep the old hash, so the checkpoint would hold content the file no
// longer has and a restore would leave the rewritten file in place. The ctime and inode, which no call sets back,
// are what tell. Real files on the real file system.
import { mkdtemp, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckpointManifest } from './checkpoint-manifest.js';
import { CheckpointStore } from './checkpoint-store.js';
import { restoreWorkspace } from './restore-workspace.js';
import { snapshotWorkspace } from './workspace-snapshot.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** An mtime long before any snapshot of the test: old enough to be trusted by the mtime alone. */
const OLD_SECONDS = 1_600_000_000;

async function workspaceWith(content: string) {
  const workspace = await mkdtemp(join(tmpdir(), 'x-forged-'));
  dirs.push(workspace);
  const file = join(workspace, 'a.txt');
  await writeFile(file, content);
  await utimes(file, OLD_SECONDS, OLD_SECONDS);
  return { workspace, file };
}

/** Rewrites `file` with `content` (same size) and puts its mtime back, as `touch -r` after an edit does. */
async function rewriteKeepingMtime(file: string, content: string): Promise<void> {
  await writeFile(file, content);
  await utimes(file, OLD_SECONDS, OLD_SECONDS);
}

/** Hashes read by a snapshot of `workspace` given `previous`, and the snapshot. */
async function snapshotReading(workspace: string, previous: CheckpointManifest) {
  const read: string[] = [];
  const manifest = await snapshotWorkspace(workspace, previous, async (sha256) => {
    read.push(sha256);
  });
  return { manifest, read };
}

describe('a file rewritten with the same size and its mtime put back', () => {
  it('is read again by the next snapshot, which holds its new content', async () => {
    const { workspace, file } = await workspaceWith('aaaa');
    const before = await snapshotWorkspace(workspace, undefined);
    await rewriteKeepingMtime(file, 'bbbb');
    const after = await snapshotWorkspace(workspace, before);
    const fresh = await snapshotWorkspace(workspace, undefined);
    expect(after.files[0]!.sha256).toBe(fresh.files[0]!.sha256);
    expect(after.files[0]!.sha256).not.toBe(before.files[0]!.sha256);
  });

  it('is written back by a restore to the checkpoint it was taken from', async () => {
    const { workspace, file } = await workspaceWith('aaaa');
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const taken = await snapshotWorkspace(workspace, undefined, (sha256, content) => objects.putBlob(sha256, content));
    await rewriteKeepingMtime(file, 'bbbb');
    const result = await restoreWorkspace({ workspace, target: taken, objects, current: taken });
    expect(result.written).toEqual(['a.txt']);
    expect(await readFile(file, 'utf8')).toBe('aaaa');
  });

  it('is read again even when the previous snapshot was taken long after its last change', async () => {
    // `taken_ms` moved past the clock granularity: only the ctime (once it has moved) can tell the rewrite apart.
    const { workspace, file } = await workspaceWith('aaaa');
    const before = await snapshotWorkspace(workspace, undefined);
    const longAfter = { ...before, taken_ms: before.files[0]!.ctime_ms! + 10_000 };
    expect((await snapshotReading(workspace, longAfter)).read).toEqual([]);
    // Rewritten until the ctime moves on (a coarse clock can keep it within one tick).
    do await rewriteKeepingMtime(file, 'bbbb');
    while ((await stat(file)).ctimeMs === before.files[0]!.ctime_ms);
    const { manifest, read } = await snapshotReading(workspace, longAfter);
    expect(read).toEqual([manifest.files[0]!.sha256]);
    expect(manifest.files[0]!.sha256).not.toBe(before.files[0]!.sha256);
  });

  it('is read again when another file of the same size and times is renamed over it', async () => {
    const { workspace, file } = await workspaceWith('aaaa');
    const before = await snapshotWorkspace(workspace, undefined);
    const other = join(workspace, 'other.tmp');
    await writeFile(other, 'bbbb');
    await rename(other, file);
    await utimes(file, OLD_SECONDS, OLD_SECONDS);
    const now = await stat(file);
    // A previous snapshot claiming every stat of the renamed file but the inode, taken long after its change.
    const entry = { ...before.files[0]!, ctime_ms: now.ctimeMs };
    const previous = { ...before, taken_ms: now.ctimeMs + 10_000, files: [entry] };
    expect(previous.files[0]!.ino).not.toBe(now.ino);
    const { read } = await snapshotReading(workspace, previous);
    expect(read).toHaveLength(1);
    const sameInode = { ...previous, files: [{ ...entry, ino: now.ino }] };
    expect((await snapshotReading(workspace, sameInode)).read).toEqual([]);
  });
});
