import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import { createLocalFileStore } from '../src/local-file-store.js';

const base = mkdtempSync(join(tmpdir(), 'x-store-batch-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

/** A root with `d/` holding `count` files, a link to a file outside, a FIFO, a sub-directory. */
async function setup(count: number) {
  const root = join(base, `r${counter++}`);
  await mkdir(join(root, 'd', 'sub'), { recursive: true });
  await writeFile(join(base, 'outside.json'), 'SECRET-OUTSIDE');
  for (let i = 0; i < count; i++) await writeFile(join(root, 'd', `f${i}.json`), `{"n":${i},"é":"ü"}`);
  await symlink(join(base, 'outside.json'), join(root, 'd', 'link.json'));
  execFileSync('mkfifo', [join(root, 'd', 'fifo.json')]);
  return { root, store: createLocalFileStore({ root, durability: 'none' }) };
}

const codeOf = (entry: Uint8Array | StoreError | undefined) =>
  StoreError.isInstance(entry) ? entry.code : entry === undefined ? 'missing' : 'bytes';

// Below 64 paths each file is lstat'ed first; from 64 on, one listing per directory stands in for those.
for (const count of [3, 300]) {
  describe(`local readBatch (${count} files: ${count < 64 ? 'lstat each' : 'one listing'})`, () => {
    it('returns each file’s exact bytes in order, and for the rest the error read() gives, without blocking', async () => {
      const { store } = await setup(count);
      const files = Array.from({ length: count }, (_, i) => `d/f${i}.json`);
      const odd = ['d/link.json', 'd/fifo.json', 'd/sub', 'd/none.json', 'nowhere/x.json', '../x.json'];
      const paths = [...files.slice(0, 2), ...odd, ...files.slice(2)];
      const results = await store.readBatch!(paths);
      expect(results).toHaveLength(paths.length);
      expect(results.map(codeOf).slice(2, 2 + odd.length)).toEqual([
        'invalid_path',
        'not_regular_file',
        'file_not_found',
        'file_not_found',
        'file_not_found',
        'invalid_path',
      ]);
      const bytes = [...results.slice(0, 2), ...results.slice(2 + odd.length)];
      for (const [i, entry] of bytes.entries()) {
        expect(Buffer.from(entry as Uint8Array).toString('utf8')).toBe(`{"n":${i},"é":"ü"}`);
        expect(Buffer.from(entry as Uint8Array).equals(Buffer.from(await store.read(`d/f${i}.json`), 'utf8'))).toBe(
          true,
        );
      }
      // The same errors as read() for the same paths.
      for (const [offset, path] of odd.entries()) {
        const error = await store.read(path).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect((results[2 + offset] as StoreError).code).toBe((error as StoreError).code);
      }
    });
  });
}

describe('local readBatch of large files (read through the thread pool from 256 KiB on)', () => {
  it('returns the exact bytes of large and small files in order, and still refuses what is not a regular file', async () => {
    const { root, store } = await setup(2);
    const large = `{"text":"${'é'.repeat(200_000)}"}`;
    const exact = `${'a'.repeat(256 * 1024 - 2)}\n`;
    await writeFile(join(root, 'd', 'large.json'), large);
    await writeFile(join(root, 'd', 'exact.json'), exact);
    const paths = ['d/f0.json', 'd/large.json', 'd/link.json', 'd/exact.json', 'd/fifo.json', 'd/f1.json'];
    const results = await store.readBatch!(paths);
    expect(results.map(codeOf)).toEqual(['bytes', 'bytes', 'invalid_path', 'bytes', 'not_regular_file', 'bytes']);
    expect(Buffer.from(results[1] as Uint8Array).toString('utf8')).toBe(large);
    expect(Buffer.from(results[3] as Uint8Array).toString('utf8')).toBe(exact);
    expect(Buffer.from(results[5] as Uint8Array).toString('utf8')).toBe('{"n":1,"é":"ü"}');
  });
});
