import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from './checkpoint-store.js';
import { restoreWorkspace } from './restore-workspace.js';
import { snapshotWorkspace } from './workspace-snapshot.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'x-checkpoint-dirs-'));
  dirs.push(dir);
  return dir;
}

/** Every entry under `root`: directories with their mode, files with mode and content, links with their target. */
async function listing(root: string, dir = ''): Promise<string[]> {
  const lines: string[] = [];
  for (const name of (await readdir(join(root, dir))).sort()) {
    const path = dir === '' ? name : `${dir}/${name}`;
    const info = await lstat(join(root, path));
    const mode = (info.mode & 0o7777).toString(8);
    if (info.isSymbolicLink()) lines.push(`${path} -> ${await readlink(join(root, path))}`);
    else if (info.isDirectory()) lines.push(`${path}/ ${mode}`, ...(await listing(root, path)));
    else lines.push(`${path} ${mode} ${await readFile(join(root, path), 'utf8')}`);
  }
  return lines;
}

describe('checkpoints keep directories', () => {
  it('restores empty directories and directory modes, and the kind of each path (file, directory, link) both ways', async () => {
    const workspace = await temp();
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const snapshot = () => snapshotWorkspace(workspace, undefined, (hash, content) => objects.putBlob(hash, content));
    await writeFile(join(workspace, 'x'), 'a file');
    await mkdir(join(workspace, 'd', 'sub'), { recursive: true });
    await writeFile(join(workspace, 'd', 'sub', 'f'), 'deep');
    await symlink('x', join(workspace, 'l'));
    await mkdir(join(workspace, 'empty', 'nested'), { recursive: true });
    await mkdir(join(workspace, 'private'));
    await chmod(join(workspace, 'private'), 0o700);
    await writeFile(join(workspace, 'private', 'key'), 'secret');
    await mkdir(join(workspace, 'shared'));
    await chmod(join(workspace, 'shared'), 0o1777);
    const first = await snapshot();
    const firstListing = await listing(workspace);

    // The second state: every kind swapped, the empty directories gone, new ones made, modes changed.
    await rm(join(workspace, 'x'));
    await mkdir(join(workspace, 'x'));
    await writeFile(join(workspace, 'x', 'y'), 'now below a directory');
    await rm(join(workspace, 'd'), { recursive: true });
    await writeFile(join(workspace, 'd'), 'now a file');
    await rm(join(workspace, 'l'));
    await mkdir(join(workspace, 'l'));
    await rm(join(workspace, 'empty'), { recursive: true });
    await mkdir(join(workspace, 'made', 'later'), { recursive: true });
    await chmod(join(workspace, 'private'), 0o755);
    const second = await snapshot();
    const secondListing = await listing(workspace);

    await restoreWorkspace({ workspace, target: first, objects });
    expect(await listing(workspace)).toEqual(firstListing);
    await restoreWorkspace({ workspace, target: second, objects });
    expect(await listing(workspace)).toEqual(secondListing);

    const fresh = await temp();
    await restoreWorkspace({ workspace: fresh, target: first, objects });
    expect(await listing(fresh)).toEqual(firstListing);
    expect(firstListing).toContain('empty/nested/ 755');
    expect(firstListing).toContain('private/ 700');

    // Stored and read back (a chunk per directory): the same tree, its empty directories included.
    const id = await objects.putTree(first);
    expect(await new CheckpointStore(objects.store, 'conv').getTree(id)).toEqual(first);
    expect(first.directories).toContainEqual({ path: 'empty/nested', mode: 0o755 });
  });

  it('gives a workspace that only gained an empty directory, or changed a directory mode, a new checkpoint id', async () => {
    const workspace = await temp();
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const id = async () =>
      objects.putTree(await snapshotWorkspace(workspace, undefined, objects.putBlob.bind(objects)));
    await writeFile(join(workspace, 'a'), 'a');
    const before = await id();
    await mkdir(join(workspace, 'build'));
    const withDirectory = await id();
    await chmod(join(workspace, 'build'), 0o700);
    const withMode = await id();
    expect(new Set([before, withDirectory, withMode]).size).toBe(3);
  });

  it('gives a read-only directory its files before its mode', async () => {
    const workspace = await temp();
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    await mkdir(join(workspace, 'locked'));
    await writeFile(join(workspace, 'locked', 'a'), 'kept');
    await chmod(join(workspace, 'locked'), 0o555);
    const manifest = await snapshotWorkspace(workspace, undefined, (hash, content) => objects.putBlob(hash, content));
    const fresh = await temp();
    await restoreWorkspace({ workspace: fresh, target: manifest, objects });
    expect(await listing(fresh)).toEqual(['locked/ 555', 'locked/a 644 kept']);
    await chmod(join(fresh, 'locked'), 0o755);
    await chmod(join(workspace, 'locked'), 0o755);
  });

  it('restores an older tree without directories as before: files and links, emptied directories pruned', async () => {
    const workspace = await temp();
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    await writeFile(join(workspace, 'a'), 'a');
    const { directories: _directories, ...older } = await snapshotWorkspace(workspace, undefined, (hash, content) =>
      objects.putBlob(hash, content),
    );
    await mkdir(join(workspace, 'new', 'deeper'), { recursive: true });
    await writeFile(join(workspace, 'new', 'deeper', 'b'), 'b');
    await restoreWorkspace({ workspace, target: older, objects });
    expect(await listing(workspace)).toEqual(['a 644 a']);
    const id = await objects.putTree(older);
    expect(await new CheckpointStore(objects.store, 'conv').getTree(id)).toEqual(older);
  });
});
