// A restore writes files as the server, outside the sandbox: it must never give one a setuid or setgid bit.
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointId } from './checkpoint-manifest.js';
import { CheckpointStore } from './checkpoint-store.js';
import { restoreWorkspace } from './restore-workspace.js';
import { snapshotWorkspace } from './workspace-snapshot.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function workspaceWithTool(mode: number): Promise<string> {
  const workspace = await mkdtemp(join(tmpdir(), 'x-set-id-'));
  dirs.push(workspace);
  await writeFile(join(workspace, 'tool'), '#!/bin/sh\necho hi\n');
  await chmod(join(workspace, 'tool'), mode);
  return workspace;
}

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

describe('checkpoints and set-id bits', () => {
  it('records a setuid/setgid file without those bits, and the same id as the plain file', async () => {
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const setId = await workspaceWithTool(0o6755);
    expect(await modeOf(join(setId, 'tool'))).toBe(0o6755);
    const taken = await snapshotWorkspace(setId, undefined, (hash, content) => objects.putBlob(hash, content));
    expect(taken.files[0]?.mode).toBe(0o755);
    // Taken again with the first as `current`, the size-and-mtime shortcut must mask the bits too.
    const again = await snapshotWorkspace(setId, { ...taken, taken_ms: Date.now() + 60_000 }, async () => undefined);
    expect(again.files[0]?.mode).toBe(0o755);
    const plain = await snapshotWorkspace(await workspaceWithTool(0o755), undefined, async () => undefined);
    expect(checkpointId(taken)).toBe(checkpointId(plain));
  });

  it('restores a file a manifest names with set-id bits without them, and keeps the sticky and permission bits', async () => {
    const workspace = await workspaceWithTool(0o755);
    const objects = new CheckpointStore(createMemoryFileStore(), 'conv');
    const target = await snapshotWorkspace(workspace, undefined, (hash, content) => objects.putBlob(hash, content));
    // A manifest written before the mask, or by someone else, that names them.
    const hostile = { ...target, files: target.files.map((file) => ({ ...file, mode: 0o7750 })) };
    await rm(join(workspace, 'tool'));
    await restoreWorkspace({ workspace, target: hostile, objects });
    expect(await modeOf(join(workspace, 'tool'))).toBe(0o1750);
    // Restored again, the file already matches (the masked mode): nothing is rewritten.
    expect(await restoreWorkspace({ workspace, target: hostile, objects })).toEqual({ written: [], removed: [] });
  });
});
