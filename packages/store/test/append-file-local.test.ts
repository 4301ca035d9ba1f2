import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import { createLocalFileStore } from '../src/local-file-store.js';

// The local store's helpers of the segment layout (src/internal/local-append-file.ts): an append file's reads and
// scope, `writeRebuildable` across directories, and `fileSizes` over missing, non-regular and present files.

const base = mkdtempSync(join(tmpdir(), 'x-store-append-local-'));
let counter = 0;

afterAll(async () => {
  await rm(base, { recursive: true, force: true, maxRetries: 5 });
});

function newStore(durability: 'none' | 'fsync' = 'none') {
  const root = join(base, `root-${++counter}`);
  return { root, store: createLocalFileStore({ root, durability }) };
}

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

describe('local AppendFile reads', () => {
  it('reads a range, fewer bytes at the end, nothing past it, and up to the end without a length', async () => {
    const { store } = newStore('fsync');
    const file = await store.openAppendFile!('log/.slots/segment');
    expect(await file.append(bytes('0123456789'))).toBe(10);
    expect(text(await file.readFrom(2, 3))).toBe('234');
    expect(text(await file.readFrom(0, 10))).toBe('0123456789');
    expect(text(await file.readFrom(7, 10))).toBe('789');
    expect(text(await file.readFrom(4))).toBe('456789');
    expect(await file.readFrom(10)).toHaveLength(0);
    expect(await file.readFrom(25)).toHaveLength(0);
    expect(await file.readFrom(25, 4)).toHaveLength(0);
    expect(await file.readFrom(2, 0)).toHaveLength(0);
    await file.close();
  });

  it('reads a file larger than one read returns at once, whole', async () => {
    const { store } = newStore();
    const file = await store.openAppendFile!('log/segment');
    const big = Buffer.alloc(5 * 1024 * 1024 + 17);
    for (let at = 0; at < big.length; at++) big[at] = (at * 31) & 0xff;
    expect(await file.append(big)).toBe(big.length);
    expect(Buffer.from(await file.readFrom(0)).equals(big)).toBe(true);
    expect(Buffer.from(await file.readFrom(1, big.length)).equals(big.subarray(1))).toBe(true);
    await file.close();
  });

  it('keeps the bytes already in the file, and closes once however often it is asked', async () => {
    const { root, store } = newStore();
    mkdirSync(join(root, 'log'), { recursive: true });
    writeFileSync(join(root, 'log/segment'), 'old;');
    const file = await store.openAppendFile!('log/segment');
    expect(await file.append(bytes('new;'))).toBe(8);
    await file.close();
    await file.close();
    expect(readFileSync(join(root, 'log/segment'), 'utf8')).toBe('old;new;');
    // Its descriptor number is free for the next open: a second close must not close that one.
    const other = await store.openAppendFile!('log/other');
    await file.close();
    expect(await other.append(bytes('x'))).toBe(1);
    await other.close();
  });

  it('is refused for a directory or a symbolic link, with the store path named', async () => {
    const { root, store } = newStore();
    mkdirSync(join(root, 'log/dir'), { recursive: true });
    writeFileSync(join(root, 'log/target'), 'x');
    symlinkSync(join(root, 'log/target'), join(root, 'log/link'));
    for (const path of ['log/dir', 'log/link']) {
      const error = await store.openAppendFile!(path).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(StoreError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(path.slice(4));
    }
  });
});

describe('local AppendFile scope', () => {
  it('is the same for two opens of one file, and differs for a copy of it', async () => {
    const { root, store } = newStore();
    const one = await store.openAppendFile!('log/segment');
    await one.append(bytes('a'));
    const two = await store.openAppendFile!('log/segment');
    copyFileSync(join(root, 'log/segment'), join(root, 'log/copy'));
    const copy = await store.openAppendFile!('log/copy');
    expect(one.scope).toMatch(/^[^:]+:\d+:\d+$/);
    expect(two.scope).toBe(one.scope);
    expect(copy.scope).not.toBe(one.scope);
    // The boot id is the same, the inode is not.
    expect(copy.scope!.split(':')[0]).toBe(one.scope!.split(':')[0]);
    for (const file of [one, two, copy]) await file.close();
  });
});

describe('local writeRebuildable and fileSizes', () => {
  it('writes files across directories, replacing what was there', async () => {
    const { root, store } = newStore();
    mkdirSync(join(root, 'a'), { recursive: true });
    writeFileSync(join(root, 'a/one.json'), 'stale and longer');
    await store.writeRebuildable!([
      { path: 'a/one.json', data: 'one' },
      { path: 'a/two.json', data: bytes('two') },
      { path: 'b/c/three.json', data: 'three' },
      { path: 'a/four.json', data: 'four' },
    ]);
    expect(
      ['a/one.json', 'a/two.json', 'b/c/three.json', 'a/four.json'].map((path) =>
        readFileSync(join(root, path), 'utf8'),
      ),
    ).toEqual(['one', 'two', 'three', 'four']);
  });

  it('sizes present files, and nothing for missing ones, missing directories and non-regular entries', async () => {
    const { root, store } = newStore();
    mkdirSync(join(root, 'a/dir'), { recursive: true });
    mkdirSync(join(root, 'b'), { recursive: true });
    writeFileSync(join(root, 'a/five'), '12345');
    writeFileSync(join(root, 'a/empty'), '');
    writeFileSync(join(root, 'b/two'), '12');
    symlinkSync(join(root, 'a/five'), join(root, 'a/link'));
    const sizes = await store.fileSizes!([
      'a/five',
      'a/missing',
      'a/empty',
      'nowhere/x',
      'nowhere/y',
      'b/two',
      'a/dir',
      'a/link',
      'a/five',
    ]);
    expect(sizes).toEqual([5, undefined, 0, undefined, undefined, 2, undefined, undefined, 5]);
    // Only a look: a missing directory is not created (a reader that may not write to the store asks too).
    expect(existsSync(join(root, 'nowhere'))).toBe(false);
    expect(await store.fileSizes!([])).toEqual([]);
  });
});
