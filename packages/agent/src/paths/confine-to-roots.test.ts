import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confineToRoots, isPathInside, resolveRealLocation } from './index.js';

let base: string;
let root: string;
let outside: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'x-confine-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'no');
  await symlink(outside, join(root, 'escape'));
  await symlink(join(base, 'nowhere'), join(root, 'dangling'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true, maxRetries: 5 });
});

describe('isPathInside', () => {
  it('accepts the root and what lies below it, nothing beside or above it', () => {
    expect(isPathInside('/a/b', '/a/b')).toBe(true);
    expect(isPathInside('/a/b', '/a/b/c/d')).toBe(true);
    expect(isPathInside('/a/b', '/a/bc')).toBe(false);
    expect(isPathInside('/a/b', '/a')).toBe(false);
    expect(isPathInside('/a/b', '/a/b/../c')).toBe(false);
  });
});

describe('confineToRoots', () => {
  it('resolves a file (existing or not yet) inside a root to its real path', async () => {
    expect(await confineToRoots(join(root, 'sub', 'new.txt'), [root])).toEqual({
      ok: true,
      real: join(root, 'sub', 'new.txt'),
      realRoot: root,
    });
  });

  it('refuses a path that leaves every root through a symlink, naming where it lands', async () => {
    expect(await confineToRoots(join(root, 'escape', 'secret.txt'), [root])).toEqual({
      ok: false,
      reason: 'outside',
      real: join(outside, 'secret.txt'),
    });
  });

  it('refuses a path through a dangling symlink (writing through it would create its target)', async () => {
    expect(await confineToRoots(join(root, 'dangling', 'x'), [root])).toEqual({
      ok: false,
      reason: 'dangling_symlink',
    });
    expect(await resolveRealLocation(join(root, 'dangling'))).toBeUndefined();
  });

  it('skips a root that does not exist and accepts the next one', async () => {
    const result = await confineToRoots(join(outside, 'secret.txt'), [join(base, 'missing'), outside]);
    expect(result).toEqual({ ok: true, real: join(outside, 'secret.txt'), realRoot: outside });
  });
});
