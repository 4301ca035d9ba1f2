import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBytes } from '../chain/read-bytes.js';
import { StoreError } from '../errors.js';
import type { FileStore } from '../file-store.js';
import { describeListingVersionContract } from './listing-version-contract.js';

export interface FileStoreContractOptions {
  /** Called after each test with the store it used (remove a temp directory, a bucket prefix, ...). */
  cleanup?: (store: FileStore) => Promise<void> | void;
  /**
   * For persistent backends: a new store instance over the same data as `store`. When given, the
   * suite checks that what one instance wrote, a fresh one reads.
   */
  reopen?: (store: FileStore) => Promise<FileStore> | FileStore;
  /** The store implements the optional `listingVersion`: the suite checks it. */
  listingVersion?: boolean;
}

/** Paths every method must reject with `InvalidPathError` (code `invalid_path`). */
const ESCAPING_PATHS = ['../x', 'a/../../x', '..', '/abs', '/etc/passwd', 'a//b', 'a\\b', '..\\x', 'a/./b', 'a\0b'];

/** Paths a file-addressing method must reject although `list` accepts them as prefixes. */
const NOT_FILE_PATHS = ['', 'dir/'];

async function caughtStoreError(action: () => Promise<unknown>): Promise<StoreError> {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(StoreError.isInstance(caught), `expected a StoreError, got ${String(caught)}`).toBe(true);
  return caught as StoreError;
}

/**
 * The behaviour every FileStore must have, as a vitest suite. Call it at the top level of a test
 * file with a factory that returns a fresh, empty store for each test.
 */
export function describeFileStoreContract(
  name: string,
  makeStore: () => Promise<FileStore> | FileStore,
  options: FileStoreContractOptions = {},
): void {
  describe(`FileStore contract: ${name}`, () => {
    let store: FileStore;

    beforeEach(async () => {
      store = await makeStore();
    });

    afterEach(async () => {
      await options.cleanup?.(store);
    });

    describe('read and write', () => {
      it('round-trips text, including non-ASCII, a byte-order mark and an empty file', async () => {
        const texts = {
          'plain.txt': 'hello',
          'unicode.txt': 'héllo wörld 日本語 🎉\n',
          'bom.txt': '\uFEFFbom',
          'empty.txt': '',
        };
        for (const [path, text] of Object.entries(texts)) await store.write(path, text);
        for (const [path, text] of Object.entries(texts)) expect(await store.read(path)).toBe(text);
      });

      it('reads many files at once (readBatch where the backend has it, else the per-file fallback): exact bytes, or the error read gives', async () => {
        await store.write('batch/b.txt', 'héllo');
        await store.write('batch/empty.txt', '');
        // readBytes is what verification reads through: the backend's readBatch, or one read per file without it.
        const results = await readBytes(store, [
          'batch/b.txt',
          'batch/missing.txt',
          undefined,
          '../x',
          'batch/empty.txt',
        ]);
        expect(results).toHaveLength(5);
        expect(new TextDecoder().decode(results[0] as Uint8Array)).toBe('héllo');
        expect(StoreError.isInstance(results[1]) && results[1].code).toBe('file_not_found');
        expect(results[2]).toBeUndefined();
        expect(StoreError.isInstance(results[3]) && results[3].code).toBe('invalid_path');
        expect((results[4] as Uint8Array).length).toBe(0);
        (results[0] as Uint8Array).fill(0);
        expect(await store.read('batch/b.txt')).toBe('héllo');
        if (store.readBatch !== undefined) {
          const bytes = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]); // not UTF-8: readBatch must return it untouched
          await store.write('batch/a.bin', bytes);
          const [binary] = await store.readBatch(['batch/a.bin']);
          expect([...(binary as Uint8Array)]).toEqual([...bytes]);
        }
      });

      it('stores bytes and reads them back as UTF-8 text', async () => {
        await store.write('bytes.bin', new TextEncoder().encode('bytes: ü 🎉'));
        await store.write('empty.bin', new Uint8Array(0));
        expect(await store.read('bytes.bin')).toBe('bytes: ü 🎉');
        expect(await store.read('empty.bin')).toBe('');
      });

      it('keeps what was written when the caller later reuses its buffer', async () => {
        const buffer = new TextEncoder().encode('original');
        await store.write('buffer.txt', buffer);
        expect(await store.writeIfAbsent('buffer-new.txt', buffer)).toBe(true);
        buffer.fill(0x21);
        expect(await store.read('buffer.txt')).toBe('original');
        expect(await store.read('buffer-new.txt')).toBe('original');
      });

      it('overwrites an existing file', async () => {
        await store.write('over.txt', 'first, and longer than the second');
        await store.write('over.txt', 'second');
        expect(await store.read('over.txt')).toBe('second');
        expect(await store.list('')).toEqual(['over.txt']);
      });

      it('creates parent directories as needed', async () => {
        await store.write('a/b/c/deep.json', '{"deep":true}');
        expect(await store.read('a/b/c/deep.json')).toBe('{"deep":true}');
        expect(await store.list('a/b')).toEqual(['a/b/c/']);
      });

      it('reports a missing file, or a directory read as a file, as file_not_found naming the path', async () => {
        const missing = await caughtStoreError(() => store.read('nope/missing.json'));
        expect(missing.code).toBe('file_not_found');
        expect(missing.message).toContain('nope/missing.json');
        await store.write('folder/inner.txt', 'x');
        expect((await caughtStoreError(() => store.read('folder'))).code).toBe('file_not_found');
        expect((await caughtStoreError(() => store.read('folder/inner.txt/more'))).code).toBe('file_not_found');
      });
    });

    describe('list', () => {
      it('returns direct children only: files as paths, directories with a trailing slash', async () => {
        for (const path of ['dir/b.txt', 'dir/a.txt', 'dir/sub/x.txt', 'dir/sub/deeper/y.txt', 'top.txt']) {
          await store.write(path, path);
        }
        expect(await store.list('dir')).toEqual(['dir/a.txt', 'dir/b.txt', 'dir/sub/']);
        expect(await store.list('dir/')).toEqual(['dir/a.txt', 'dir/b.txt', 'dir/sub/']);
        expect(await store.list('dir/sub')).toEqual(['dir/sub/deeper/', 'dir/sub/x.txt']);
        expect(await store.list('')).toEqual(['dir/', 'top.txt']);
      });

      it('sorts by code point (UTF-8 byte order), not UTF-16 code unit', async () => {
        const names = ['😀', '\uE000', 'é', 'a', '_', 'B', '10', '9'];
        for (const entry of names) await store.write(`sorted/${entry}`, entry);
        expect(await store.list('sorted')).toEqual(
          ['10', '9', 'B', '_', 'a', 'é', '\uE000', '😀'].map((entry) => `sorted/${entry}`),
        );
      });

      it('lists a missing directory, and a path that is a file, as empty', async () => {
        await store.write('file.txt', 'x');
        expect(await store.list('missing')).toEqual([]);
        expect(await store.list('missing/deeper/')).toEqual([]);
        expect(await store.list('file.txt')).toEqual([]);
      });

      it('does not confuse a directory with a sibling that shares its name as a prefix', async () => {
        await store.write('logs/a', '1');
        await store.write('logs-old/b', '2');
        await store.write('logsfile', '3');
        expect(await store.list('logs')).toEqual(['logs/a']);
      });
    });

    describe('delete and exists', () => {
      it('deletes a file', async () => {
        await store.write('d/one.txt', '1');
        await store.write('d/two.txt', '2');
        await store.delete('d/one.txt');
        expect(await store.exists('d/one.txt')).toBe(false);
        expect((await caughtStoreError(() => store.read('d/one.txt'))).code).toBe('file_not_found');
        expect(await store.list('d')).toEqual(['d/two.txt']);
      });

      it('deletes a directory recursively and leaves siblings with the same name prefix', async () => {
        for (const path of ['tree/a.txt', 'tree/b/c.txt', 'tree/b/d/e.txt', 'treehouse/keep.txt', 'tree.txt']) {
          await store.write(path, path);
        }
        await store.delete('tree');
        expect(await store.exists('tree')).toBe(false);
        expect(await store.list('tree')).toEqual([]);
        expect(await store.list('')).toEqual(['tree.txt', 'treehouse/']);
        expect(await store.read('treehouse/keep.txt')).toBe('treehouse/keep.txt');
      });

      it('treats deleting something missing as a no-op', async () => {
        await store.delete('never/was.txt');
        await store.delete('never');
        expect(await store.list('')).toEqual([]);
      });

      it('drops a directory from listings once its last file is deleted', async () => {
        await store.write('p/q/only.txt', 'x');
        await store.write('p/keep.txt', 'y');
        await store.delete('p/q/only.txt');
        expect(await store.exists('p/q')).toBe(false);
        expect(await store.list('p')).toEqual(['p/keep.txt']);
      });

      it('reports files and non-empty directories as existing, and nothing else', async () => {
        await store.write('ex/file.txt', 'x');
        expect(await store.exists('ex/file.txt')).toBe(true);
        expect(await store.exists('ex')).toBe(true);
        expect(await store.exists('ex/fil')).toBe(false);
        expect(await store.exists('e')).toBe(false);
        expect(await store.exists('missing')).toBe(false);
        expect(await store.exists('ex/file.txt/below')).toBe(false);
      });
    });

    describe('writeIfAbsent', () => {
      it('creates once, then reports false and keeps the first content', async () => {
        expect(await store.writeIfAbsent('claims/00001.json', 'winner')).toBe(true);
        expect(await store.writeIfAbsent('claims/00001.json', 'loser')).toBe(false);
        expect(await store.read('claims/00001.json')).toBe('winner');
        expect(await store.list('claims')).toEqual(['claims/00001.json']);
      });

      it('reports false for a file made by write, and true again after a delete', async () => {
        await store.write('wia.txt', 'written');
        expect(await store.writeIfAbsent('wia.txt', 'other')).toBe(false);
        expect(await store.read('wia.txt')).toBe('written');
        await store.delete('wia.txt');
        expect(await store.writeIfAbsent('wia.txt', 'again')).toBe(true);
        expect(await store.read('wia.txt')).toBe('again');
      });

      it('lets exactly one of 20 concurrent writers win, and keeps the winner’s content', async () => {
        const contents = Array.from({ length: 20 }, (_, i) => `writer ${i}`);
        const results = await Promise.all(contents.map((content) => store.writeIfAbsent('race/slot.json', content)));
        const winners = results.flatMap((won, i) => (won ? [i] : []));
        expect(winners).toHaveLength(1);
        expect(await store.read('race/slot.json')).toBe(contents[winners[0] ?? -1]);
        expect(await store.list('race')).toEqual(['race/slot.json']);
      });
    });

    describe('copy', () => {
      it('copies a file, replacing an existing target, and leaves the source as it was', async () => {
        await store.write('copy/source.json', '{"n":1}');
        await store.write('copy/nested/target.json', 'old');
        await store.copy('copy/source.json', 'copy/nested/target.json');
        expect(await store.read('copy/nested/target.json')).toBe('{"n":1}');
        await store.copy('copy/source.json', 'copy/elsewhere/fresh.json');
        expect(await store.read('copy/elsewhere/fresh.json')).toBe('{"n":1}');
        expect(await store.read('copy/source.json')).toBe('{"n":1}');
        expect(await store.list('copy')).toEqual(['copy/elsewhere/', 'copy/nested/', 'copy/source.json']);
      });

      it('keeps the copy unchanged when the source is overwritten later', async () => {
        await store.write('copy2/a.txt', 'first');
        await store.copy('copy2/a.txt', 'copy2/b.txt');
        await store.write('copy2/a.txt', 'second');
        expect(await store.read('copy2/b.txt')).toBe('first');
      });

      it('reports a missing source as file_not_found and creates nothing', async () => {
        const error = await caughtStoreError(() => store.copy('copy3/missing.txt', 'copy3/target.txt'));
        expect(error.code).toBe('file_not_found');
        expect(error.message).toContain('copy3/missing.txt');
        expect(await store.exists('copy3/target.txt')).toBe(false);
      });
    });

    describe('path confinement', () => {
      it.each(ESCAPING_PATHS)('rejects %j with invalid_path on every method', async (path) => {
        const calls: Record<string, () => Promise<unknown>> = {
          read: () => store.read(path),
          write: () => store.write(path, 'x'),
          writeIfAbsent: () => store.writeIfAbsent(path, 'x'),
          copyFrom: () => store.copy(path, 'safe/target.txt'),
          copyTo: () => store.copy('safe/source.txt', path),
          list: () => store.list(path),
          delete: () => store.delete(path),
          exists: () => store.exists(path),
          describe: async () => store.describe(path),
        };
        for (const [method, call] of Object.entries(calls)) {
          const error = await caughtStoreError(call);
          expect(error.code, `${method}(${JSON.stringify(path)})`).toBe('invalid_path');
          expect(error.message).toContain(JSON.stringify(path));
        }
        expect(await store.list('')).toEqual([]);
      });

      it.each(NOT_FILE_PATHS)('rejects %j where a file or entry path is required', async (path) => {
        const calls = [
          () => store.read(path),
          () => store.write(path, 'x'),
          () => store.writeIfAbsent(path, 'x'),
          () => store.delete(path),
          () => store.exists(path),
        ];
        for (const call of calls) expect((await caughtStoreError(call)).code).toBe('invalid_path');
      });

      it('describes a path as a location that names it', async () => {
        expect(store.describe('conversations/abc/base_state.json')).toContain('conversations/abc/base_state.json');
      });
    });

    if (options.listingVersion === true) describeListingVersionContract(() => store);

    if (options.reopen !== undefined) {
      const reopen = options.reopen;
      it('reads through a fresh store instance what an earlier one wrote', async () => {
        await store.write('persist/events/one.json', '{"n":1}');
        expect(await store.writeIfAbsent('persist/.slots/00000.json', '{"n":0}')).toBe(true);
        const reopened = await reopen(store);
        expect(await reopened.read('persist/events/one.json')).toBe('{"n":1}');
        expect(await reopened.read('persist/.slots/00000.json')).toBe('{"n":0}');
        expect(await reopened.list('persist')).toEqual(['persist/.slots/', 'persist/events/']);
        expect(await reopened.writeIfAbsent('persist/.slots/00000.json', 'late')).toBe(false);
      });
    }
  });
}
