import { describe, expect, it } from 'vitest';
import { StoreError } from '../src/errors.js';
import { eventFileName } from '../src/event-log/file-names.js';
import {
  checkSample,
  formatNameIndex,
  listedRun,
  nameIndexPath,
  parseNameIndex,
  readNameIndex,
  writeNameIndex,
} from '../src/event-log/name-index.js';
import { PathList } from '../src/event-log/path-list.js';
import { scanListing } from '../src/event-log/scan.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';

/**
 * The name index file on its own (`name-index.ts`): its text, what `parseNameIndex` accepts, why it refuses the
 * rest, and which listings `listedRun` may record as exact. An accepted index replaces a directory listing, so a
 * check that lets a wrong name through would open the log with the wrong files.
 */

const names = (count: number): string[] => Array.from({ length: count }, (_, k) => eventFileName(k, `id-${k}`));

/** The names an accepted index holds, read back from its text and offsets. */
function namesOf(text: string, listing = 't'): string[] {
  const read = parseNameIndex(text, listing);
  if (read.kind !== 'current') throw new Error(`not current: ${JSON.stringify(read)}`);
  expect(read.starts.length).toBe(read.count + 1);
  return Array.from({ length: read.count }, (_, k) => text.slice(read.starts[k]!, read.starts[k + 1]! - 1));
}

function problemOf(text: string): string {
  const read = parseNameIndex(text, 't');
  if (read.kind !== 'invalid') throw new Error(`expected invalid, got ${read.kind}`);
  return read.problem;
}

describe('name index text', () => {
  it('is a header line, then one name per line; parsed back to the same names', () => {
    const text = formatNameIndex('t', names(3));
    expect(text).toBe(
      `{"format":"x-name-index","v":1,"listing":"t","count":3}\n${names(3)
        .map((name) => `${name}\n`)
        .join('')}`,
    );
    expect(namesOf(text)).toEqual(names(3));
    expect(formatNameIndex('t', [])).toBe('{"format":"x-name-index","v":1,"listing":"t","count":0}\n');
    expect(namesOf(formatNameIndex('t', []))).toEqual([]);
    for (const count of [1, 2, 17, 18, 40, 1100])
      expect(namesOf(formatNameIndex('t', names(count)))).toEqual(names(count));
  });

  it('writeNameIndex writes the same text as formatNameIndex, for the first `count` paths; readNameIndex reads it', async () => {
    const store = createMemoryFileStore();
    const paths = new PathList();
    for (const name of names(5)) paths.push(`conv/events/${name}`);
    await writeNameIndex(store, 'conv/events', { listing: 'v7', count: 4 }, paths);
    expect(nameIndexPath('conv/events')).toBe('conv/events/.slots/name-index');
    expect(await store.read('conv/events/.slots/name-index')).toBe(formatNameIndex('v7', names(4)));
    const read = await readNameIndex(store, 'conv/events', 'v7');
    expect(read).toMatchObject({ kind: 'current', count: 4 });
    expect(await readNameIndex(store, 'conv/events', 'v8')).toEqual({ kind: 'stale' });
    expect(await readNameIndex(store, 'other/events', 'v7')).toEqual({ kind: 'absent' });
  });

  it('readNameIndex reports a store error reading it as invalid, and rethrows anything else', async () => {
    const store = createMemoryFileStore();
    const failing = (error: unknown): FileStore => ({
      ...store,
      read: async () => {
        throw error;
      },
    });
    const storeError = new StoreError('store_backend', 'disk on fire');
    const read = await readNameIndex(failing(storeError), 'events', 't');
    expect(read.kind).toBe('invalid');
    expect(read.kind === 'invalid' && read.problem).toBe(storeError.message);
    await expect(readNameIndex(failing(new TypeError('a bug')), 'events', 't')).rejects.toThrow('a bug');
  });

  it('refuses a damaged index, naming what is wrong', () => {
    const good = formatNameIndex('t', names(3));
    const header = (fields: Record<string, unknown>) =>
      `${JSON.stringify({ format: 'x-name-index', v: 1, listing: 't', count: 3, ...fields })}\n${names(3).join('\n')}\n`;
    expect(problemOf('{"format":"x-name-index"')).toBe('no header line');
    expect(problemOf(`{nope\n${names(3).join('\n')}\n`)).toBe('the header is not JSON');
    for (const spoilt of [
      header({ format: 'other' }),
      header({ v: 2 }),
      header({ listing: 7 }),
      header({ count: '3' }),
      header({ count: 1.5 }),
      header({ count: -1 }),
      `null\n${names(3).join('\n')}\n`,
      `"x-name-index"\n`,
    ]) {
      expect(problemOf(spoilt), spoilt.slice(0, 80)).toBe('not an x-name-index v1 header');
    }
    expect(problemOf(good.slice(0, -1))).toBe('truncated (no final newline)');
    expect(problemOf(header({ count: 10_000 }))).toBe('the header says 10000 names, the file is shorter');
    expect(problemOf(header({ count: 4 }))).toBe('the header says 4 names, the file has 3');
    expect(problemOf(header({ count: 2 }))).toBe('the file has more than the 2 names it says');
    // Exactly as long as the file: not refused for its length, only for the names it lacks.
    const exact = Array.from({ length: 1000 }, (_, n) => n).find((n) => header({ count: n }).length === n)!;
    expect(exact).toBeGreaterThan(3);
    expect(problemOf(header({ count: exact }))).toBe(`the header says ${exact} names, the file has 3`);
    // Another listing is stale before anything else about the file is looked at.
    expect(parseNameIndex(good.slice(0, -1), 'other')).toEqual({ kind: 'stale' });
  });

  it('checks the first, the last and sampled names between against their index', () => {
    const count = 40;
    const good = names(count);
    const text = (list: string[]) => formatNameIndex('t', list);
    const spoil = (at: number, name: string) => good.map((original, k) => (k === at ? name : original));
    const wrong = (at: number) => eventFileName(at + 1, `id-${at}`);
    const line = (at: number, name: string) =>
      `line ${at + 2} (${JSON.stringify(name)}) is not the event file name of index ${at}`;
    // 40 names, 17 samples: every other name from 0, and the last.
    for (const at of [0, 2, 20, 38, 39]) expect(problemOf(text(spoil(at, wrong(at))))).toBe(line(at, wrong(at)));
    // A name between samples is not read (the listing version, not this check, is what vouches for the names).
    expect(namesOf(text(spoil(1, wrong(1))))[1]).toBe(wrong(1));
    // The step is count / 17, rounded down: every other name for 34 to 50 names.
    for (const other of [34, 50]) {
      const list = names(other);
      list[1] = wrong(1);
      expect(namesOf(text(list))[1]).toBe(wrong(1));
      list[1] = names(2)[1]!;
      list[2] = wrong(2);
      expect(problemOf(text(list))).toBe(line(2, wrong(2)));
    }
    expect(problemOf(text(spoil(0, `sub/${good[0]}`)))).toBe(line(0, `sub/${good[0]}`));
    expect(problemOf(text(spoil(2, 'not an event file')))).toBe(line(2, 'not an event file'));
    // One name: itself first and last.
    expect(problemOf(text([wrong(0)]))).toBe(line(0, wrong(0)));
    const long = `${'x'.repeat(100)}`;
    expect(problemOf(text(spoil(0, long)))).toBe(line(0, long.slice(0, 80)));
  });

  it('checkSample of no names finds nothing to check', () => {
    expect(checkSample('', new Int32Array(1), 0)).toBeUndefined();
  });
});

describe('listedRun', () => {
  const dir = 'events';
  const paths = (indices: number[]) => indices.map((index) => `${dir}/${eventFileName(index, `id-${index}`)}`);

  it('is the count of a listing of exactly the indices 0..n-1, in any order, with other names ignored', () => {
    expect(listedRun(scanListing([]))).toBe(0);
    expect(listedRun(scanListing(paths([0])))).toBe(1);
    expect(listedRun(scanListing(paths([2, 0, 1])))).toBe(3);
    expect(listedRun(scanListing([...paths([0, 1]), `${dir}/notes.txt`, `${dir}/.slots/`]))).toBe(2);
  });

  it('is undefined for a gap with files after it, a duplicate index, or files past the listing size', () => {
    expect(listedRun(scanListing(paths([0, 2, 3, 4])))).toBeUndefined();
    expect(listedRun(scanListing([...paths([0, 2]), `${dir}/a.txt`, `${dir}/b.txt`]))).toBeUndefined();
    expect(listedRun(scanListing(paths([1])))).toBeUndefined();
    expect(listedRun(scanListing(paths([0, 1, 3])))).toBeUndefined();
    expect(listedRun(scanListing([...paths([0, 1]), `${dir}/${eventFileName(1, 'other')}`]))).toBeUndefined();
  });
});
