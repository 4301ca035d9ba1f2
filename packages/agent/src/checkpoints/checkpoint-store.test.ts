import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from './checkpoint-store.js';
import { CheckpointDamagedError } from './errors/checkpoint-damaged-error.js';
import { restoreWorkspace } from './restore-workspace.js';
import { snapshotWorkspace } from './workspace-snapshot.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** The memory store without the optional `readBatch`, as S3 is: blobs must survive `read`'s UTF-8 decoding. */
function withoutReadBatch(store: FileStore): FileStore {
  return {
    read: (path) => store.read(path),
    write: (path, data) => store.write(path, data),
    writeIfAbsent: (path, data) => store.writeIfAbsent(path, data),
    copy: (from, to) => store.copy(from, to),
    list: (prefix) => store.list(prefix),
    delete: (path) => store.delete(path),
    exists: (path) => store.exists(path),
    describe: (path) => store.describe(path),
  };
}

const binary = Uint8Array.from({ length: 256 }, (_, index) => index);
const sha = (content: Uint8Array) => createHash('sha256').update(content).digest('hex');

describe('CheckpointStore', () => {
  for (const [name, store] of [
    ['a store with readBatch', createMemoryFileStore()],
    ['a store without readBatch', withoutReadBatch(createMemoryFileStore())],
  ] as const) {
    it(`keeps binary blobs byte for byte on ${name}, and names a damaged one`, async () => {
      const objects = new CheckpointStore(store, 'conv');
      await objects.putBlob(sha(binary), binary);
      expect(Buffer.from((await objects.getBlobs([sha(binary)]))[0]!)).toEqual(Buffer.from(binary));
      const missing = sha(Uint8Array.of(1));
      await expect(objects.getBlobs([missing])).rejects.toThrow(CheckpointDamagedError);
      await expect(objects.getBlobs([missing])).rejects.toThrow(missing);
    });
  }

  it('stores a tree as a chunk per directory, and names a damaged chunk', async () => {
    const store = createMemoryFileStore();
    const objects = new CheckpointStore(store, 'conv');
    const file = (path: string) => ({ path, sha256: sha(binary), size: 256, mtime_ms: 1, mode: 0o644 });
    const manifest = { version: 1 as const, files: [file('a'), file('d/b'), file('d/e/c')], symlinks: [], skipped: [] };
    const id = await objects.putTree(manifest);
    expect(await objects.getTree(id)).toEqual(manifest);
    const chunks = await store.list('conv/.x-checkpoints/chunks');
    expect(chunks).toHaveLength(3);
    // A second tree that changed one directory writes one new chunk.
    await objects.putTree({ ...manifest, files: [file('a'), file('d/b'), { ...file('d/e/c'), mode: 0o755 }] });
    expect(await store.list('conv/.x-checkpoints/chunks')).toHaveLength(4);
    await store.write(chunks[0]!, '{"files":[],"symlinks":[],"skipped":[]}');
    const error = await new CheckpointStore(store, 'conv').getTree(id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CheckpointDamagedError);
    expect((error as Error).message).toContain(chunks[0]);
  });

  it('reads back a snapshot with files and links above and below a directory as the same checkpoint', async () => {
    // The walk meets the top's entries before a directory's, the opposite of their order by path ('a/…' < 'z…').
    const workspace = await mkdtemp(join(tmpdir(), 'x-checkpoint-ws-'));
    dirs.push(workspace);
    await mkdir(join(workspace, 'a'));
    await writeFile(join(workspace, 'a', 'below.txt'), 'below');
    await symlink('below.txt', join(workspace, 'a', 'below-link'));
    await writeFile(join(workspace, 'z.txt'), 'above');
    await symlink('z.txt', join(workspace, 'z-link'));
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const manifest = await snapshotWorkspace(workspace, undefined, (hash, content) => objects.putBlob(hash, content));
    expect(manifest.files.map((file) => file.path)).toEqual(['a/below.txt', 'z.txt']);
    expect(manifest.symlinks.map((link) => link.path)).toEqual(['a/below-link', 'z-link']);
    const id = await objects.putTree(manifest);
    expect(await new CheckpointStore(objects.store, 'conv').getTree(id)).toEqual(manifest);
  });

  it('snapshots modes and links, and restores them', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'x-checkpoint-ws-'));
    dirs.push(workspace);
    await writeFile(join(workspace, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    await writeFile(join(workspace, 'data.bin'), binary);
    await symlink('run.sh', join(workspace, 'link'));
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const manifest = await snapshotWorkspace(workspace, undefined, (hash, content) => objects.putBlob(hash, content));
    expect(manifest.symlinks).toEqual([{ path: 'link', target: 'run.sh' }]);

    await rm(join(workspace, 'run.sh'));
    await rm(join(workspace, 'link'));
    await writeFile(join(workspace, 'data.bin'), 'changed');
    await writeFile(join(workspace, 'extra.txt'), 'not in the checkpoint');
    const result = await restoreWorkspace({ workspace, target: manifest, objects });
    expect(result.removed).toEqual(['extra.txt']);
    expect((await stat(join(workspace, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(Buffer.from(await readFile(join(workspace, 'data.bin')))).toEqual(Buffer.from(binary));
    expect(await readFile(join(workspace, 'link'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
  });
});
