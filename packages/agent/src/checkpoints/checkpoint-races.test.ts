// Snapshots and restores walk the workspace with the server's authority while the agent's background processes may
// still be changing it. A restore that puts a file or link where the workspace has a directory removes that
// directory first: Node's recursive `rm` walks by path, so a subdirectory swapped for a link to the outside mid-walk
// has it delete host files (a loop of swaps against it did, within a few dozen restores). Every walk must go through
// verified descriptors instead. The races are made deterministic by swapping at the one moment a directory is listed
// (`readdir`, wrapped below; everything else is Node's own).
import type { PathLike } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createMemoryFileStore } from '@x/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckpointStore } from './checkpoint-store.js';
import { restoreWorkspace } from './restore-workspace.js';
import { snapshotWorkspace } from './workspace-snapshot.js';

/** Runs once, the next time a listing holds the name (given where the listed directory is): cleared when it fires. */
let onListing: { name: string; run: (listed: string) => Promise<void> } | undefined;

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const readdirHooked = async (path: PathLike, options?: unknown) => {
    const listed = await (actual.readdir as (path: PathLike, options?: unknown) => Promise<unknown[]>)(path, options);
    const names = listed.map((entry) => (typeof entry === 'string' ? entry : (entry as { name: string }).name));
    const hook = onListing;
    if (hook !== undefined && names.includes(hook.name)) {
      onListing = undefined;
      await hook.run(String(path).startsWith('/proc/self/fd/') ? await actual.readlink(path) : String(path));
    }
    return listed;
  };
  return { ...actual, readdir: readdirHooked, default: { ...actual, readdir: readdirHooked } };
});

const dirs: string[] = [];
afterEach(async () => {
  onListing = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function scratch(): Promise<{ workspace: string; outside: string }> {
  const base = await mkdtemp(join(tmpdir(), 'x-checkpoint-removal-'));
  dirs.push(base);
  const workspace = join(base, 'workspace');
  const outside = join(base, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  return { workspace, outside };
}

/** A checkpoint of the workspace holding `entries` (file contents, or `{ link }` targets), with its blobs. */
async function checkpointOf(workspace: string, entries: Record<string, string | { link: string }>) {
  for (const [path, entry] of Object.entries(entries)) {
    if (typeof entry === 'string') await writeFile(join(workspace, path), entry);
    else await symlink(entry.link, join(workspace, path));
  }
  const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
  const target = await snapshotWorkspace(workspace, undefined, (hash, content) => objects.putBlob(hash, content));
  for (const path of Object.keys(entries)) await rm(join(workspace, path));
  return { objects, target };
}

describe('a restore over a directory', () => {
  it('removes the directory standing where a file goes, with what the snapshot leaves out', async () => {
    const { workspace } = await scratch();
    const { objects, target } = await checkpointOf(workspace, { x: 'the file' });
    await mkdir(join(workspace, 'x', 'sub', '.git'), { recursive: true });
    await writeFile(join(workspace, 'x', 'sub', 'f'), 'later');
    await writeFile(join(workspace, 'x', 'sub', '.git', 'HEAD'), 'ref');
    await symlink('/', join(workspace, 'x', 'root-link'));
    const result = await restoreWorkspace({ workspace, target, objects });
    expect(result.written).toEqual(['x']);
    expect(await readdir(workspace)).toEqual(['x']);
    expect(await readFile(join(workspace, 'x'), 'utf8')).toBe('the file');
  });

  it('removes the directory standing where a link goes', async () => {
    const { workspace } = await scratch();
    const { objects, target } = await checkpointOf(workspace, { l: { link: 'somewhere' } });
    await mkdir(join(workspace, 'l', '.git'), { recursive: true });
    await writeFile(join(workspace, 'l', '.git', 'HEAD'), 'ref');
    const result = await restoreWorkspace({ workspace, target, objects });
    expect(result.written).toEqual(['l']);
    expect(await readlink(join(workspace, 'l'))).toBe('somewhere');
  });

  it('never deletes through a subdirectory swapped for a link while it is being removed', async () => {
    const { workspace, outside } = await scratch();
    const { objects, target } = await checkpointOf(workspace, { x: 'the file' });
    await writeFile(join(outside, 'host-file'), 'host');
    // Left out of the snapshot (`.git`), so the removal of `x` is what meets it.
    await mkdir(join(workspace, 'x', '.git'), { recursive: true });
    await writeFile(join(workspace, 'x', '.git', 'host-file'), 'inside');
    onListing = {
      name: 'host-file',
      run: async () => {
        await rename(join(workspace, 'x', '.git'), join(workspace, 'held'));
        await symlink(outside, join(workspace, 'x', '.git'));
      },
    };
    const error = await restoreWorkspace({ workspace, target, objects }).catch((caught: unknown) => caught);
    expect(onListing).toBeUndefined();
    expect(error).toBeInstanceOf(Error);
    expect(await readdir(outside)).toEqual(['host-file']);
    expect(await readFile(join(outside, 'host-file'), 'utf8')).toBe('host');
  });
});

describe('a snapshot walk', () => {
  it('never lists a host directory through a directory swapped for a link during the walk', async () => {
    const { workspace, outside } = await scratch();
    await writeFile(join(outside, 'host-secret'), 'host');
    for (const dir of ['a', 'b']) {
      await mkdir(join(workspace, dir));
      await writeFile(join(workspace, dir, 'f'), dir);
    }
    // Whichever of `a` and `b` is listed first has the other swapped before it is listed.
    let swapped = '';
    onListing = {
      name: 'f',
      run: async (listed) => {
        swapped = basename(listed) === 'a' ? 'b' : 'a';
        await rm(join(workspace, swapped), { recursive: true });
        await symlink(outside, join(workspace, swapped));
      },
    };
    const manifest = await snapshotWorkspace(workspace, undefined);
    expect(JSON.stringify(manifest)).not.toContain('host-secret');
    expect(manifest.files.map((file) => file.path)).toEqual([swapped === 'a' ? 'b/f' : 'a/f']);
    expect(manifest.skipped).toEqual([{ path: swapped, reason: expect.stringContaining(`'${swapped}'`) }]);
  });
});

describe('a snapshot walk, racing removals', () => {
  it('leaves out an entry removed between the listing and the look at it', async () => {
    const { workspace } = await scratch();
    await writeFile(join(workspace, 'gone'), 'removed by the agent');
    await writeFile(join(workspace, 'kept'), 'kept');
    onListing = { name: 'gone', run: () => rm(join(workspace, 'gone')) };
    const manifest = await snapshotWorkspace(workspace, undefined);
    expect(onListing).toBeUndefined();
    expect(manifest.files.map((file) => file.path)).toEqual(['kept']);
    expect(manifest.skipped).toEqual([]);
  });
});

describe('a snapshot walk, racing a removed directory', () => {
  it('leaves out a directory removed between its parent’s listing and its own', async () => {
    const { workspace } = await scratch();
    for (const dir of ['a', 'b']) {
      await mkdir(join(workspace, dir));
      await writeFile(join(workspace, dir, 'f'), dir);
    }
    let removed = '';
    onListing = {
      name: 'f',
      run: async (listed) => {
        removed = basename(listed) === 'a' ? 'b' : 'a';
        await rm(join(workspace, removed), { recursive: true });
      },
    };
    const manifest = await snapshotWorkspace(workspace, undefined);
    expect(manifest.files.map((file) => file.path)).toEqual([removed === 'a' ? 'b/f' : 'a/f']);
    expect(manifest.skipped).toEqual([]);
  });
});

describe('checkpoints', () => {
  it('leave no descriptor open after a snapshot and a restore', async () => {
    const { workspace } = await scratch();
    await mkdir(join(workspace, 'd', 'e'), { recursive: true });
    const { objects, target } = await checkpointOf(workspace, { 'd/e/f': 'deep', 'd/g': 'flat', top: 'top' });
    await mkdir(join(workspace, 'top', 'sub'), { recursive: true });
    await writeFile(join(workspace, 'extra'), 'extra');
    const open = async () => (await readdir('/proc/self/fd')).length;
    const before = await open();
    await restoreWorkspace({ workspace, target, objects });
    await snapshotWorkspace(workspace, target);
    expect(await readFile(join(workspace, 'd', 'e', 'f'), 'utf8')).toBe('deep');
    expect(await open()).toBe(before);
  });
});
