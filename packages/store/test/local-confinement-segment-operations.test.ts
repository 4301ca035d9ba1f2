import { execFileSync } from 'node:child_process';
import { constants, lstatSync, mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';

// The local store's operations of the segment layout (src/internal/local-append-file.ts: `openAppendFile`,
// `writeRebuildable`, `fileSizes`) are held to the same confinement as the others (local-confinement.test.ts):
// a directory swapped for a link to outside, `..` and absolute paths, and a FIFO where the segment goes.

const base = mkdtempSync(join(tmpdir(), 'x-store-confine-segment-'));
let counter = 0;
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));

const SECRET = 'SECRET-OUTSIDE-THE-ROOT';

/** Every entry under `dir` with its content (files), for comparing before and after. */
function snapshot(dir: string): string {
  const lines: string[] = [];
  const visit = (path: string, rel: string): void => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const info = lstatSync(full);
      if (info.isDirectory()) {
        lines.push(`${rel}${name}/ ${info.ino}`);
        visit(full, `${rel}${name}/`);
      } else lines.push(`${rel}${name} ${info.ino} ${info.isFile() ? readFileSync(full, 'utf8') : 'special'}`);
    }
  };
  visit(dir, '');
  return lines.join('\n');
}

async function setup() {
  const n = ++counter;
  const root = join(base, `root-${n}`);
  const outside = join(base, `outside-${n}`);
  const store = createLocalFileStore({ root, durability: 'fsync' });
  for (const path of ['a/b/c/file.json', 'a/b/file.json', 'a/file.json']) await store.write(path, `inside ${path}`);
  for (const dir of ['', 'b', 'b/c', 'c']) await mkdir(join(outside, dir), { recursive: true });
  for (const file of ['file.json', 'segment', 'b/file.json', 'b/c/file.json', 'c/file.json', 'c/segment']) {
    await writeFile(join(outside, file), SECRET);
  }
  return { root, outside, store };
}

/** Runs `action`; returns its value, or the StoreError it threw (anything else fails the test). */
async function attempt(action: () => Promise<unknown>): Promise<unknown> {
  try {
    return await action();
  } catch (error) {
    if (!StoreError.isInstance(error)) throw new Error(`expected a StoreError, got ${String(error)}`, { cause: error });
    return error;
  }
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** The segment layout's operations on paths at and below `level`. */
function segmentOperations(store: FileStore, level: string): [string, () => Promise<unknown>][] {
  const operations: [string, () => Promise<unknown>][] = [];
  for (const path of [`${level}/segment`, `${level}/file.json`, `${level}/c/segment`, `${level}/new/deeper/segment`]) {
    operations.push(
      [
        `openAppendFile ${path}`,
        async () => {
          const file = await store.openAppendFile!(path);
          try {
            await file.append(bytes('appended'));
            return new TextDecoder().decode(await file.readFrom(0));
          } finally {
            await file.close();
          }
        },
      ],
      [`writeRebuildable ${path}`, () => store.writeRebuildable!([{ path, data: 'x' }])],
    );
  }
  operations.push([
    `fileSizes ${level}`,
    () => store.fileSizes!([`${level}/file.json`, `${level}/segment`, `${level}/c/file.json`, `${level}/c/segment`]),
  ]);
  return operations;
}

describe('local FileStore confinement of the segment layout operations', () => {
  for (const level of ['a', 'a/b', 'a/b/c']) {
    it(`never reaches outside the root when ${level} is swapped for a link to outside (after being used)`, async () => {
      const { root, outside, store } = await setup();
      const before = snapshot(outside);
      expect(await store.fileSizes!([`${level}/file.json`])).toEqual([`inside ${level}/file.json`.length]);
      await rename(join(root, level), join(root, `${level}-moved`));
      await symlink(level === 'a/b/c' ? outside : join(outside, 'b'), join(root, level));

      for (const [name, action] of segmentOperations(store, level)) {
        // Refused, as every other operation is (the link is found on the way down): nothing read, written or sized.
        const result = await attempt(action);
        expect(StoreError.isInstance(result) && result.code, name).toBe('invalid_path');
        expect(snapshot(outside), name).toBe(before);
      }
    });
  }

  it('rejects `..`, absolute paths and NUL bytes', async () => {
    const { outside, store } = await setup();
    const before = snapshot(outside);
    for (const path of [
      `../outside-${counter}/segment`,
      `a/../../outside-${counter}/segment`,
      join(outside, 'segment'),
      'a/\0x',
    ]) {
      for (const action of [
        () => store.openAppendFile!(path),
        () => store.writeRebuildable!([{ path, data: 'x' }]),
        () => store.fileSizes!([path]),
      ]) {
        const error = await attempt(action);
        expect(StoreError.isInstance(error) && error.code, path).toBe('invalid_path');
      }
    }
    expect(snapshot(outside)).toBe(before);
  });

  it('refuses to append to a FIFO (naming it) without blocking or keeping it open, and tells no size of it', async () => {
    const { root, store } = await setup();
    const fifo = join(root, 'a', 'segment');
    execFileSync('mkfifo', [fifo]);
    const error = await attempt(() => store.openAppendFile!('a/segment'));
    expect(StoreError.isInstance(error) && error.code).toBe('not_regular_file');
    expect((error as Error).message).toContain(fifo);
    // A writer that will not wait finds no reader: the descriptor the refusal opened was closed.
    expect(() => openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)).toThrow(
      expect.objectContaining({ code: 'ENXIO' }),
    );
    expect(await store.fileSizes!(['a/segment', 'a/file.json'])).toEqual([undefined, 'inside a/file.json'.length]);
  });
});
