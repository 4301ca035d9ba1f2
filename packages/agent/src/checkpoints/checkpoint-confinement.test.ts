// Checkpoints touch the workspace with the server's authority while the agent's background processes may still be
// changing it, and restore trees that may come from a store someone else can write: nothing may be read from or
// written to outside the workspace. The races are made deterministic by swapping a directory for a link at the
// one moment between the walk and the use (from the blob callbacks the snapshot and restore await).
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkspacePathError } from '../paths/workspace-path-error.js';
import { type CheckpointManifest, checkpointId } from './checkpoint-manifest.js';
import { CheckpointStore } from './checkpoint-store.js';
import { CheckpointDamagedError } from './errors/checkpoint-damaged-error.js';
import { restoreWorkspace } from './restore-workspace.js';
import { snapshotWorkspace } from './workspace-snapshot.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function scratch(): Promise<{ workspace: string; outside: string }> {
  const base = await mkdtemp(join(tmpdir(), 'x-checkpoint-confinement-'));
  dirs.push(base);
  const workspace = join(base, 'workspace');
  const outside = join(base, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  return { workspace, outside };
}

/** Swaps the workspace directory `a` for a link to `outside`, once, however many callers wait on it. */
function swapper(workspace: string, outside: string): () => Promise<void> {
  let swapped: Promise<void> | undefined;
  return () => {
    swapped ??= (async () => {
      await rm(join(workspace, 'a'), { recursive: true, force: true });
      await symlink(outside, join(workspace, 'a'));
    })();
    return swapped;
  };
}

describe('a snapshot', () => {
  it('never reads a host file through a directory swapped for a link after the walk', async () => {
    const { workspace, outside } = await scratch();
    await writeFile(join(outside, 'x'), 'HOST SECRET');
    // More files at the top than the snapshot reads at once, so `a/x` is read after the first blob is stored.
    for (let n = 0; n < 200; n++) await writeFile(join(workspace, `f${String(n).padStart(3, '0')}`), `file ${n}`);
    await mkdir(join(workspace, 'a'));
    await writeFile(join(workspace, 'a', 'x'), 'inside');
    const swap = swapper(workspace, outside);
    const stored: string[] = [];
    const manifest = await snapshotWorkspace(workspace, undefined, async (_hash, content) => {
      await swap();
      stored.push(Buffer.from(content).toString('utf8'));
    });
    expect(stored).not.toContain('HOST SECRET');
    expect(manifest.files.map((file) => file.path)).not.toContain('a/x');
    expect(manifest.skipped.map((file) => file.path)).toContain('a/x');
  });

  it('never records the target of a host link through a directory swapped for a link after the walk', async () => {
    const { workspace, outside } = await scratch();
    await symlink('/host/only/target', join(outside, 'l'));
    for (let n = 0; n < 200; n++) await writeFile(join(workspace, `f${String(n).padStart(3, '0')}`), `file ${n}`);
    await mkdir(join(workspace, 'a'));
    await symlink('inside', join(workspace, 'a', 'l'));
    const swap = swapper(workspace, outside);
    const manifest = await snapshotWorkspace(workspace, undefined, swap);
    expect(JSON.stringify(manifest)).not.toContain('/host/only/target');
    expect(manifest.symlinks).toEqual([{ path: 'a/l', target: 'inside' }]);
  });

  it('never reads a host file through a file swapped for a link after the walk, and says so', async () => {
    const { workspace, outside } = await scratch();
    await writeFile(join(outside, 'x'), 'HOST SECRET');
    for (let n = 0; n < 200; n++) await writeFile(join(workspace, `f${String(n).padStart(3, '0')}`), `file ${n}`);
    await mkdir(join(workspace, 'a'));
    await writeFile(join(workspace, 'a', 'z'), 'inside');
    let swapped: Promise<void> | undefined;
    const stored: string[] = [];
    const manifest = await snapshotWorkspace(workspace, undefined, async (_hash, content) => {
      swapped ??= rm(join(workspace, 'a', 'z')).then(() => symlink(join(outside, 'x'), join(workspace, 'a', 'z')));
      await swapped;
      stored.push(Buffer.from(content).toString('utf8'));
    });
    expect(stored).not.toContain('HOST SECRET');
    expect(manifest.skipped).toEqual([{ path: 'a/z', reason: expect.stringContaining('replaced by a symbolic link') }]);
  });

  it('leaves out what was removed after the walk, and never makes a removed directory again', async () => {
    const { workspace } = await scratch();
    for (let n = 0; n < 200; n++) await writeFile(join(workspace, `f${String(n).padStart(3, '0')}`), `file ${n}`);
    for (const dir of ['a', 'b']) {
      await mkdir(join(workspace, dir));
      await writeFile(join(workspace, dir, 'x'), 'inside');
    }
    let removed: Promise<void> | undefined;
    const manifest = await snapshotWorkspace(workspace, undefined, async () => {
      removed ??= (async () => {
        await rm(join(workspace, 'a'), { recursive: true });
        await rm(join(workspace, 'b', 'x'));
      })();
      await removed;
    });
    expect(manifest.files).toHaveLength(200);
    expect(manifest.skipped).toEqual([]);
    expect(await readdir(workspace)).not.toContain('a');
  });
});

describe('a restore', () => {
  it('never writes through a directory swapped for a link after the workspace was read', async () => {
    const { workspace, outside } = await scratch();
    await mkdir(join(workspace, 'a'));
    await writeFile(join(workspace, 'a', 'x'), 'checkpointed');
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    // A tree without directories (as stored before they were kept): the file is written through its parent as found.
    const { directories: _directories, ...target } = await snapshotWorkspace(workspace, undefined, (hash, content) =>
      objects.putBlob(hash, content),
    );
    await writeFile(join(workspace, 'a', 'x'), 'changed since');

    const swap = swapper(workspace, outside);
    const racing = Object.create(objects) as CheckpointStore;
    racing.getBlobs = async (hashes) => {
      const blobs = await objects.getBlobs(hashes);
      await swap();
      return blobs;
    };
    const error = await restoreWorkspace({ workspace, target, objects: racing }).catch((caught: unknown) => caught);
    expect(WorkspacePathError.isInstance(error)).toBe(true);
    expect(await readdir(outside)).toEqual([]);
  });

  it('replaces a directory swapped for a link by the directory the tree records, never writing through the link', async () => {
    const { workspace, outside } = await scratch();
    await mkdir(join(workspace, 'a'));
    await writeFile(join(workspace, 'a', 'x'), 'checkpointed');
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const target = await snapshotWorkspace(workspace, undefined, (hash, content) => objects.putBlob(hash, content));
    await writeFile(join(workspace, 'a', 'x'), 'changed since');

    const swap = swapper(workspace, outside);
    const racing = Object.create(objects) as CheckpointStore;
    racing.getBlobs = async (hashes) => {
      const blobs = await objects.getBlobs(hashes);
      await swap();
      return blobs;
    };
    await restoreWorkspace({ workspace, target, objects: racing });
    expect(await readdir(outside)).toEqual([]);
    expect((await lstat(join(workspace, 'a'))).isDirectory()).toBe(true);
    expect(await readFile(join(workspace, 'a', 'x'), 'utf8')).toBe('checkpointed');
  });

  it('never removes through a directory swapped for a link after the workspace was read', async () => {
    const { workspace, outside } = await scratch();
    await writeFile(join(outside, 'x'), 'host');
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const target = await snapshotWorkspace(workspace, undefined);
    await mkdir(join(workspace, 'a'));
    await writeFile(join(workspace, 'a', 'x'), 'not in the checkpoint');
    const swap = swapper(workspace, outside);
    const racing = Object.create(objects) as CheckpointStore;
    racing.getBlobs = async (hashes) => {
      await swap();
      return objects.getBlobs(hashes);
    };
    const error = await restoreWorkspace({ workspace, target, objects: racing }).catch((caught: unknown) => caught);
    expect(WorkspacePathError.isInstance(error)).toBe(true);
    expect(await readdir(outside)).toEqual(['x']);
  });

  const blob = 'a'.repeat(64);
  const file = (path: string) => ({ path, sha256: blob, size: 1, mtime_ms: 0, mode: 0o644 });
  const hostile: [string, Omit<CheckpointManifest, 'version'>][] = [
    ['a parent segment', { files: [file('../escaped')], symlinks: [], skipped: [] }],
    ['a nested parent segment', { files: [file('a/../../escaped')], symlinks: [], skipped: [] }],
    ['an absolute path', { files: [file('/tmp/escaped')], symlinks: [], skipped: [] }],
    ['an empty segment', { files: [file('a//b')], symlinks: [], skipped: [] }],
    ['a dot segment', { files: [file('./a')], symlinks: [], skipped: [] }],
    ['a NUL byte', { files: [file('a\0b')], symlinks: [], skipped: [] }],
    ['a file below a link', { files: [file('link/x')], symlinks: [{ path: 'link', target: '/etc' }], skipped: [] }],
    ['a link below a file', { files: [file('f')], symlinks: [{ path: 'f/l', target: '/' }], skipped: [] }],
    ['a path listed twice', { files: [file('same')], symlinks: [{ path: 'same', target: '/' }], skipped: [] }],
    ['a skipped parent segment', { files: [], symlinks: [], skipped: [{ path: '../kept', reason: 'x' }] }],
  ];
  for (const [what, tree] of hostile) {
    it(`refuses a tree with ${what} before touching any file`, async () => {
      const { workspace, outside } = await scratch();
      await writeFile(join(workspace, 'mine.txt'), 'the user’s work');
      const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
      await objects.putBlob(blob, Buffer.from('x'));
      const target: CheckpointManifest = { version: 1, ...tree };
      const error = await restoreWorkspace({ workspace: join(workspace), target, objects }).catch((caught) => caught);
      expect(CheckpointDamagedError.isInstance(error), String(error)).toBe(true);
      expect((error as Error).message).toContain(`checkpoint ${checkpointId(target)}`);
      expect(await readdir(workspace)).toEqual(['mine.txt']);
      expect(await readFile(join(workspace, 'mine.txt'), 'utf8')).toBe('the user’s work');
      expect(await readdir(outside)).toEqual([]);
    });
  }
});
