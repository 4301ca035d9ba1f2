// What a restore leaves in the workspace: each file with its checkpointed bytes, permission bits (whatever the
// umask) and modification time, nothing the checkpoint did not have, and only what differed rewritten.
import { chmod, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
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

async function workspaceWith(files: Record<string, string>): Promise<string> {
  const workspace = await mkdtemp(join(tmpdir(), 'x-restore-'));
  dirs.push(workspace);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(workspace, path, '..'), { recursive: true });
    await writeFile(join(workspace, path), content);
  }
  return workspace;
}

async function checkpoint(workspace: string) {
  const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
  const target = await snapshotWorkspace(workspace, undefined, (hash, content) => objects.putBlob(hash, content));
  return { objects, target };
}

describe('restoreWorkspace', () => {
  it('gives a file its checkpointed permission bits and modification time', async () => {
    const workspace = await workspaceWith({ 'shared.txt': 'for everyone' });
    // Wider than the umask lets a new file be: only an explicit chmod gives it back.
    await chmod(join(workspace, 'shared.txt'), 0o666);
    const { objects, target } = await checkpoint(workspace);
    await rm(join(workspace, 'shared.txt'));
    expect(await restoreWorkspace({ workspace, target, objects })).toEqual({ written: ['shared.txt'], removed: [] });
    const info = await stat(join(workspace, 'shared.txt'));
    expect(info.mode & 0o777).toBe(0o666);
    expect(Math.abs(info.mtimeMs - target.files[0]!.mtime_ms)).toBeLessThan(1);
  });

  it('rewrites only what differs, removes what the checkpoint lacks, and keeps what it could not read', async () => {
    const workspace = await workspaceWith({ 'same.txt': 'same', 'mode.sh': 'echo', 'changed.txt': 'v1' });
    await symlink('same.txt', join(workspace, 'link'));
    const { objects, target } = await checkpoint(workspace);
    await chmod(join(workspace, 'mode.sh'), 0o755);
    await writeFile(join(workspace, 'changed.txt'), 'v2');
    await mkdir(join(workspace, 'extra', 'deep'), { recursive: true });
    await writeFile(join(workspace, 'extra', 'deep', 'e.txt'), 'not in the checkpoint');
    await writeFile(join(workspace, 'kept.txt'), 'unreadable when the checkpoint was taken');
    const restored = { ...target, skipped: [{ path: 'kept.txt', reason: 'permission denied' }] };
    expect(await restoreWorkspace({ workspace, target: restored, objects })).toEqual({
      written: ['changed.txt', 'mode.sh'],
      removed: ['extra/deep/e.txt'],
    });
    expect((await readdir(workspace)).sort()).toEqual(['changed.txt', 'kept.txt', 'link', 'mode.sh', 'same.txt']);
    expect(await readFile(join(workspace, 'changed.txt'), 'utf8')).toBe('v1');
    expect((await stat(join(workspace, 'mode.sh'))).mode & 0o777).toBe(0o644);
    expect(await readlink(join(workspace, 'link'))).toBe('same.txt');
  });

  it('makes a workspace that is not there, links and all', async () => {
    const source = await workspaceWith({ 'a/b.txt': 'b' });
    await symlink('a/b.txt', join(source, 'to-b'));
    const { objects, target } = await checkpoint(source);
    const workspace = join(source, 'elsewhere', 'new');
    expect(await restoreWorkspace({ workspace, target, objects })).toEqual({
      written: ['a/b.txt', 'to-b'],
      removed: [],
    });
    expect(await readFile(join(workspace, 'to-b'), 'utf8')).toBe('b');
  });

  it('takes no trouble over files removed meanwhile by someone else', async () => {
    const workspace = await workspaceWith({ 'kept.txt': 'kept' });
    const { objects, target } = await checkpoint(workspace);
    await writeFile(join(workspace, 'gone.txt'), 'extra');
    await mkdir(join(workspace, 'dir'));
    await writeFile(join(workspace, 'dir', 'gone.txt'), 'extra');
    // Between the look at the workspace and the first change: the agent's background process removes them.
    const racing = Object.create(objects) as CheckpointStore;
    racing.getBlobs = async (hashes) => {
      await rm(join(workspace, 'gone.txt'));
      await rm(join(workspace, 'dir'), { recursive: true });
      return objects.getBlobs(hashes);
    };
    const result = await restoreWorkspace({ workspace, target, objects: racing });
    expect(result.removed.sort()).toEqual(['dir/gone.txt', 'gone.txt']);
    expect(await readdir(workspace)).toEqual(['kept.txt']);
  });

  it('brings back a link whose directory is gone, the directory with it', async () => {
    const workspace = await workspaceWith({ 'target.txt': 'pointed at' });
    await mkdir(join(workspace, 'links'));
    await symlink('../target.txt', join(workspace, 'links', 'to-target'));
    const { objects, target } = await checkpoint(workspace);
    await rm(join(workspace, 'links'), { recursive: true });
    await restoreWorkspace({ workspace, target, objects });
    expect(await readlink(join(workspace, 'links', 'to-target'))).toBe('../target.txt');
    expect(await readFile(join(workspace, 'links', 'to-target'), 'utf8')).toBe('pointed at');
  });
});
