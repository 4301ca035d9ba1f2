import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidPathError } from '../src/errors/invalid-path-error.js';
import { StoreBackendError } from '../src/errors/store-backend-error.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';

// `writeIfAbsentThenWrite` on the local store: the EventLog's claim and event file under one walk from
// the root, with the guarantees of `writeIfAbsent` followed by `write`. Nothing is cached between calls:
// the tests that delete, rename or swap a directory between two calls hold that in place.

const base = mkdtempSync(join(tmpdir(), 'x-store-pair-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

const CLAIM = 'c/events/.slots/00000.json';
const EVENT = 'c/events/event-00000-a.json';

function fresh(durability: 'none' | 'fsync') {
  const root = join(base, `root-${++counter}`);
  const outside = join(base, `outside-${counter}`);
  return { root, outside, store: createLocalFileStore({ root, durability }) };
}

/** Every name in `dir` (dot files included), or [] when it does not exist. */
function names(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function pair(store: FileStore) {
  const write = store.writeIfAbsentThenWrite;
  if (write === undefined) throw new Error('the local store offers writeIfAbsentThenWrite');
  return write;
}

describe.each(['none', 'fsync'] as const)('local writeIfAbsentThenWrite (durability %s)', (durability) => {
  it('creates the claim, tells onCreated while only the claim exists, then writes the file', async () => {
    const { root, store } = fresh(durability);
    const seen: string[] = [];
    const created = await pair(store)({ path: CLAIM, data: 'claim' }, { path: EVENT, data: 'event' }, () => {
      seen.push(`claim ${existsSync(join(root, CLAIM))}, file ${existsSync(join(root, EVENT))}`);
    });
    expect(created).toBe(true);
    expect(seen).toEqual(['claim true, file false']);
    expect(await store.read(CLAIM)).toBe('claim');
    expect(await store.read(EVENT)).toBe('event');
    expect(names(join(root, 'c/events'))).toEqual(['.slots', 'event-00000-a.json']);
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json']);
  });

  it('resolves false when the claim exists, without writing the file or leaving a temp file', async () => {
    const { root, store } = fresh(durability);
    await store.write(CLAIM, 'first');
    let called = 0;
    const created = await pair(store)({ path: CLAIM, data: 'second' }, { path: EVENT, data: 'event' }, () => called++);
    expect(created).toBe(false);
    expect(called).toBe(0);
    expect(await store.read(CLAIM)).toBe('first');
    expect(names(join(root, 'c/events'))).toEqual(['.slots']);
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json']);
  });

  it('reports a failed second write after onCreated, as write would, and keeps the claim', async () => {
    const { root, store } = fresh(durability);
    // A non-empty directory where the file goes: the rename over it fails.
    await store.write(`${EVENT}/inside.txt`, 'x');
    let called = 0;
    const error = await pair(store)(
      { path: CLAIM, data: 'claim' },
      { path: EVENT, data: 'event' },
      () => called++,
    ).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(StoreBackendError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'write', path: EVENT });
    expect(called).toBe(1);
    expect(await store.read(CLAIM)).toBe('claim');
    expect(names(join(root, 'c/events')).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });

  it('walks from the root at every call: a directory deleted and made again is written afresh', async () => {
    const { root, store } = fresh(durability);
    expect(await pair(store)({ path: CLAIM, data: '0' }, { path: EVENT, data: 'e0' }, () => undefined)).toBe(true);
    await rm(join(root, 'c/events'), { recursive: true });
    await mkdir(join(root, 'c/events'));
    const claim1 = 'c/events/.slots/00001.json';
    const event1 = 'c/events/event-00001-b.json';
    expect(await pair(store)({ path: claim1, data: '1' }, { path: event1, data: 'e1' }, () => undefined)).toBe(true);
    expect(names(join(root, 'c/events'))).toEqual(['.slots', 'event-00001-b.json']);
    expect(readFileSync(join(root, event1), 'utf8')).toBe('e1');
  });

  it('never writes into a directory renamed away since the previous call', async () => {
    const { root, store } = fresh(durability);
    expect(await pair(store)({ path: CLAIM, data: '0' }, { path: EVENT, data: 'e0' }, () => undefined)).toBe(true);
    await rename(join(root, 'c'), join(root, 'moved'));
    const claim1 = 'c/events/.slots/00001.json';
    const event1 = 'c/events/event-00001-b.json';
    expect(await pair(store)({ path: claim1, data: '1' }, { path: event1, data: 'e1' }, () => undefined)).toBe(true);
    expect(names(join(root, 'moved/events'))).toEqual(['.slots', 'event-00000-a.json']);
    expect(names(join(root, 'moved/events/.slots'))).toEqual(['00000.json']);
    expect(names(join(root, 'c/events'))).toEqual(['.slots', 'event-00001-b.json']);
  });

  it.each([
    ['the event directory', 'c/events', 'c/events'],
    ['the claim directory', 'c/events/.slots', 'c/events/.slots'],
    ['a parent directory', 'c', 'c'],
  ])(
    'refuses %s swapped for a symbolic link since the previous call, writing nothing outside',
    async (_what, swapped, component) => {
      const { root, outside, store } = fresh(durability);
      expect(await pair(store)({ path: CLAIM, data: '0' }, { path: EVENT, data: 'e0' }, () => undefined)).toBe(true);
      // The real directory goes outside the root and a link to it takes its place.
      await mkdir(outside, { recursive: true });
      await rename(join(root, swapped), join(outside, 'target'));
      await symlink(join(outside, 'target'), join(root, swapped));
      const before = names(join(outside, 'target'));
      let called = 0;
      const claim1 = 'c/events/.slots/00001.json';
      const event1 = 'c/events/event-00001-b.json';
      const error = await pair(store)({ path: claim1, data: '1' }, { path: event1, data: 'e1' }, () => called++).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(InvalidPathError.isInstance(error)).toBe(true);
      expect((error as InvalidPathError).reason).toContain(JSON.stringify(component));
      expect(called).toBe(0);
      expect(names(join(outside, 'target'))).toEqual(before);
    },
  );

  it('falls back to the two calls when the claim is not at or below the file’s directory', async () => {
    const { store } = fresh(durability);
    const order: string[] = [];
    const created = await pair(store)(
      { path: 'claims/x.json', data: 'claim' },
      { path: 'files/x.json', data: 'file' },
      () => order.push('created'),
    );
    expect(created).toBe(true);
    expect(order).toEqual(['created']);
    expect(await store.read('claims/x.json')).toBe('claim');
    expect(await store.read('files/x.json')).toBe('file');
  });
});
