// An entry a snapshot cannot even look at (lstat fails: permissions, an I/O error) is not silently dropped: it is
// listed as skipped, with the reason (a restore leaves what was skipped alone). Tests run as root here, where
// permissions never fail a look, so the failure is made by wrapping `lstat` for one name (the rest is Node's own).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { snapshotWorkspace } from './workspace-snapshot.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const lstat = ((path: string, ...rest: unknown[]) => {
    if (String(path).endsWith('/unseeable')) {
      return Promise.reject(Object.assign(new Error('EACCES: permission denied, lstat'), { code: 'EACCES' }));
    }
    return (actual.lstat as (...args: unknown[]) => Promise<unknown>)(path, ...rest);
  }) as typeof actual.lstat;
  return { ...actual, lstat, default: { ...actual, lstat } };
});

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('snapshotWorkspace', () => {
  it('lists an entry it cannot look at as skipped, with the reason', async () => {
    const workspace = await mkdtemp(join(tmpdir(), 'x-unseeable-'));
    dirs.push(workspace);
    await writeFile(join(workspace, 'unseeable'), 'x');
    await writeFile(join(workspace, 'seen'), 'y');
    const manifest = await snapshotWorkspace(workspace, undefined);
    expect(manifest.files.map((file) => file.path)).toEqual(['seen']);
    expect(manifest.skipped).toEqual([{ path: 'unseeable', reason: 'EACCES: permission denied, lstat' }]);
  });
});
