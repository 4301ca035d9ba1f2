import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';

// `writeIfAbsentThenWriteMany` on the local store: the EventLog's batch of claims and event files under one
// walk with shared fsyncs, with the guarantees of `writeIfAbsentThenWrite` called for each pair in order.

const base = mkdtempSync(join(tmpdir(), 'x-store-pairs-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

const claim = (i: number) => `c/events/.slots/0000${i}.json`;
const file = (i: number) => `c/events/event-0000${i}-e${i}.json`;
const pairs = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => ({
    first: { path: claim(from + k), data: `claim ${from + k}` },
    second: { path: file(from + k), data: `event ${from + k}` },
  }));

function fresh(durability: 'none' | 'fsync') {
  const root = join(base, `root-${++counter}`);
  return { root, store: createLocalFileStore({ root, durability }) };
}

function names(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function many(store: FileStore) {
  const write = store.writeIfAbsentThenWriteMany;
  if (write === undefined) throw new Error('the local store offers writeIfAbsentThenWriteMany');
  return write;
}

describe.each(['none', 'fsync'] as const)('local writeIfAbsentThenWriteMany (durability %s)', (durability) => {
  it('writes every claim, then every file, telling onCreated in order while the files are not written yet', async () => {
    const { root, store } = fresh(durability);
    const seen: string[] = [];
    const created = await many(store)(pairs(0, 3), (i) => seen.push(`${i}: file ${existsSync(join(root, file(i)))}`));
    expect(created).toBe(3);
    expect(seen).toEqual(['0: file false', '1: file false', '2: file false']);
    expect(names(join(root, 'c/events'))).toEqual([
      '.slots',
      'event-00000-e0.json',
      'event-00001-e1.json',
      'event-00002-e2.json',
    ]);
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json', '00001.json', '00002.json']);
    expect(readFileSync(join(root, claim(1)), 'utf8')).toBe('claim 1');
    expect(readFileSync(join(root, file(2)), 'utf8')).toBe('event 2');
  });

  it('stops at the first claim that exists: the pairs before it are written, nothing after it, no temp left', async () => {
    const { root, store } = fresh(durability);
    await store.write(claim(2), 'taken');
    const seen: number[] = [];
    const created = await many(store)(pairs(0, 4), (i) => seen.push(i));
    expect(created).toBe(2);
    expect(seen).toEqual([0, 1]);
    expect(names(join(root, 'c/events'))).toEqual(['.slots', 'event-00000-e0.json', 'event-00001-e1.json']);
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json', '00001.json', '00002.json']);
    expect(readFileSync(join(root, claim(2)), 'utf8')).toBe('taken');
  });

  it('resolves 0 and writes nothing when the first claim exists', async () => {
    const { root, store } = fresh(durability);
    await store.write(claim(0), 'taken');
    expect(await many(store)(pairs(0, 2), () => undefined)).toBe(0);
    expect(names(join(root, 'c/events'))).toEqual(['.slots']);
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json']);
  });

  it('writes pairs outside one claim and one file directory one call at a time, with the same result', async () => {
    const { root, store } = fresh(durability);
    const mixed = [
      { first: { path: 'a/.slots/00000.json', data: 'a' }, second: { path: 'a/event-00000-x.json', data: 'ax' } },
      { first: { path: 'b/.slots/00000.json', data: 'b' }, second: { path: 'b/event-00000-y.json', data: 'by' } },
    ];
    expect(await many(store)(mixed, () => undefined)).toBe(2);
    expect(readFileSync(join(root, 'a/event-00000-x.json'), 'utf8')).toBe('ax');
    expect(readFileSync(join(root, 'b/.slots/00000.json'), 'utf8')).toBe('b');
  });

  it('reports the listing versions around the batch on the directory it opened', async () => {
    const { store } = fresh(durability);
    await many(store)(pairs(0, 1), () => undefined);
    const before = await store.listingVersion!('c/events');
    let reported: { before: string; after: string } | undefined;
    await many(store)(pairs(1, 3), () => undefined, { onVersions: (b, a) => (reported = { before: b, after: a }) });
    expect(reported?.before).toBe(before);
    expect(reported?.after).toBe(await store.listingVersion!('c/events'));
  });

  it('with deferThen (files the caller rebuilds from their claims) writes every file before resolving and defers nothing', async () => {
    const { root, store } = fresh(durability);
    const handedOver: Promise<void>[] = [];
    const deferThen = (rest: Promise<void>) => handedOver.push(rest);
    expect(await many(store)(pairs(0, 2), () => undefined, { deferThen })).toBe(2);
    expect(
      await store.writeIfAbsentThenWrite!(pairs(2, 3)[0]!.first, pairs(2, 3)[0]!.second, () => undefined, {
        deferThen,
      }),
    ).toBe(true);
    // A taken claim: nothing written, as without the option.
    expect(
      await store.writeIfAbsentThenWrite!(pairs(2, 3)[0]!.first, { path: file(9), data: 'x' }, () => undefined, {
        deferThen,
      }),
    ).toBe(false);
    expect(handedOver).toEqual([]);
    expect(names(join(root, 'c/events'))).toEqual([
      '.slots',
      'event-00000-e0.json',
      'event-00001-e1.json',
      'event-00002-e2.json',
    ]);
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json', '00001.json', '00002.json']);
    expect(readFileSync(join(root, file(2)), 'utf8')).toBe('event 2');
    expect(readFileSync(join(root, claim(1)), 'utf8')).toBe('claim 1');
  });
});
