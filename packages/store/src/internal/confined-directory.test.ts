import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidPathError } from '../errors/invalid-path-error.js';
import { type ConfinedRoot, openConfinedRoot, openDirectory } from './confined-directory.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'x-confined-dir-')));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));

/** The same walk without `/proc` (macOS, BSD, Windows): the path itself, checked with lstat per component. */
function fallbackRoot(realPath: string): ConfinedRoot {
  return { handle: { path: realPath, fd: undefined, close: async () => undefined }, realPath };
}

for (const [name, rootOf] of [
  ['anchored by /proc/self/fd', openConfinedRoot],
  ['lstat fallback', fallbackRoot],
] as const) {
  describe(`openDirectory (${name})`, () => {
    it('opens and creates directories, and reports missing ones and files as absent', async () => {
      const path = join(base, name.replace(/\W/g, '-'));
      await mkdir(join(path, 'a'), { recursive: true });
      await writeFile(join(path, 'file'), 'x');
      const root = rootOf(path);
      const created = await openDirectory(root, ['a', 'b', 'c'], { create: true, storePath: 'a/b/c/x' });
      await writeFile(`${created!.path}/x`, 'y');
      await created!.close();
      expect(await readdir(join(path, 'a', 'b', 'c'))).toEqual(['x']);
      expect(await openDirectory(root, ['missing'], { create: false, storePath: 'missing/x' })).toBeUndefined();
      expect(await openDirectory(root, ['file'], { create: false, storePath: 'file/x' })).toBeUndefined();
    });

    it('refuses a link at any depth, and creates nothing through a dangling one', async () => {
      const path = join(base, `${name.replace(/\W/g, '-')}-links`);
      const outside = `${path}-outside`;
      await mkdir(join(path, 'a'), { recursive: true });
      await mkdir(outside, { recursive: true });
      await symlink(outside, join(path, 'a', 'out'));
      await symlink(join(outside, 'later'), join(path, 'dangling'));
      const root = rootOf(path);
      for (const segments of [['a', 'out'], ['a', 'out', 'deeper'], ['dangling'], ['dangling', 'x']]) {
        for (const create of [false, true]) {
          await expect(openDirectory(root, segments, { create, storePath: 'p' })).rejects.toBeInstanceOf(
            InvalidPathError,
          );
        }
      }
      expect(await readdir(outside)).toEqual([]);
    });
  });
}
