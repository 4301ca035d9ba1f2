import { existsSync, mkdtempSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../src/errors.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';

/**
 * Stand-ins for what no test can time or provoke by itself: a concurrent `delete` pruning the directory the
 * pair just opened from the root (the next `removals` such opens remove it again at once), and a temp file that
 * cannot be written (a full disk) when its name starts with `.${failName}`.
 */
const hooks = vi.hoisted(() => ({ removals: 0, removed: 0, failName: '' }));

vi.mock('../src/internal/confined-directory.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/internal/confined-directory.js')>();
  return {
    ...actual,
    openDirectory: async (...args: Parameters<typeof actual.openDirectory>) => {
      const [root, segments, options] = args;
      const handle = await actual.openDirectory(...args);
      // Only walks from the store's root (not the claim directory opened below the event directory).
      if (options.create && segments.length > 0 && options.above === undefined && hooks.removals > 0) {
        hooks.removals--;
        hooks.removed++;
        rmdirSync(join(root.handle.path, ...segments));
      }
      return handle;
    },
  };
});

vi.mock('../src/internal/regular-file.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/internal/regular-file.js')>();
  return {
    ...actual,
    writeNewFile: async (...args: Parameters<typeof actual.writeNewFile>) => {
      if (hooks.failName !== '' && basename(args[0]).startsWith(`.${hooks.failName}`)) {
        throw Object.assign(new Error(`ENOSPC: no space left on device, open '${args[0]}'`), { code: 'ENOSPC' });
      }
      return actual.writeNewFile(...args);
    },
  };
});

const base = mkdtempSync(join(tmpdir(), 'x-store-pair-mutants-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

beforeEach(() => {
  hooks.removals = 0;
  hooks.removed = 0;
  hooks.failName = '';
});

const CLAIM = 'c/events/.slots/00000.json';
const EVENT = 'c/events/event-00000-a.json';

function fresh(durability: 'none' | 'fsync') {
  const root = join(base, `root-${++counter}`);
  return { root, store: createLocalFileStore({ root, durability }) };
}

function names(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function pair(store: FileStore) {
  const write = store.writeIfAbsentThenWrite;
  if (write === undefined) throw new Error('the local store offers writeIfAbsentThenWrite');
  return write;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
}

/** Descriptors this process holds open (Linux: one entry each in /proc/self/fd). */
const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe.each(['none', 'fsync'] as const)('local pair writes (durability %s)', (durability) => {
  it('close every directory they open: created, taken, and when onCreated throws', async () => {
    const { store } = fresh(durability);
    const round = async (i: number) => {
      const claim = `r/.slots/${i}.json`;
      const event = `r/event-${i}.json`;
      expect(await pair(store)({ path: claim, data: 'c' }, { path: event, data: 'e' }, () => undefined)).toBe(true);
      expect(await pair(store)({ path: claim, data: 'c' }, { path: event, data: 'e' }, () => undefined)).toBe(false);
      const thrown = await rejection(
        pair(store)({ path: `r/.slots/${i}-x.json`, data: 'c' }, { path: `r/event-${i}-x.json`, data: 'e' }, () => {
          throw new Error('caller failed');
        }),
      );
      expect(thrown).toBeInstanceOf(Error);
      const pairs = [
        { first: { path: `m/.slots/${i}.json`, data: 'c' }, second: { path: `m/e-${i}.json`, data: 'e' } },
      ];
      expect(await store.writeIfAbsentThenWriteMany!(pairs, () => undefined)).toBe(1);
      expect(await store.writeIfAbsentThenWriteMany!(pairs, () => undefined)).toBe(0);
      const items = [
        {
          first: { path: `l/.slots/${i}.json`, data: 'c' },
          body: { path: `l/.slots/b-${i}.json`, data: 'b' },
          linkAt: `l/e-${i}.json`,
        },
      ];
      const throwing = [{ ...items[0]!, first: { path: `l/.slots/${i}-x.json`, data: 'c' } }];
      const thrownByLink = await rejection(
        store.writeIfAbsentThenLinkMany!(throwing, () => {
          throw new Error('caller failed');
        }),
      );
      expect(thrownByLink).toBeInstanceOf(Error);
      expect(await store.writeIfAbsentThenLinkMany!(items, () => undefined)).toBe(1);
      expect(await store.writeIfAbsentThenLinkMany!(items, () => undefined)).toBe(0);
    };
    // And each call failing (a temp file that cannot be written) closes what it opened too.
    const failing = async (i: number) => {
      hooks.failName = 'fail';
      const claim = { path: `f/.slots/fail-${i}.json`, data: 'c' };
      const second = { path: `f/e-${i}.json`, data: 'e' };
      expect(await rejection(pair(store)(claim, second, () => undefined))).toBeInstanceOf(Error);
      expect(
        await rejection(store.writeIfAbsentThenWriteMany!([{ first: claim, second }], () => undefined)),
      ).toBeInstanceOf(Error);
      const item = { first: claim, body: { path: `f/.slots/b-${i}.json`, data: 'b' }, linkAt: second.path };
      expect(await rejection(store.writeIfAbsentThenLinkMany!([item], () => undefined))).toBeInstanceOf(Error);
      hooks.failName = '';
    };
    await round(-1);
    await failing(-1);
    const rounds = 20;
    const before = openDescriptors();
    for (let i = 0; i < rounds; i++) await failing(i);
    for (let i = 0; i < rounds; i++) await round(i);
    // Each round opens a dozen directory descriptors: a leak of any one would show here many times over.
    expect(openDescriptors() - before).toBeLessThan(rounds / 2);
  });

  it('walks again once when the directory it opened is removed before the claim is made', async () => {
    const { root, store } = fresh(durability);
    hooks.removals = 1;
    let called = 0;
    expect(await pair(store)({ path: CLAIM, data: 'claim' }, { path: EVENT, data: 'event' }, () => called++)).toBe(
      true,
    );
    expect(hooks.removed).toBe(1);
    expect(called).toBe(1);
    expect(names(join(root, 'c/events'))).toEqual(['.slots', 'event-00000-a.json']);
    expect(await store.read(CLAIM)).toBe('claim');
  });

  it('gives up with the system’s error when the directory is removed on the second walk too', async () => {
    const { store } = fresh(durability);
    hooks.removals = 3;
    const error = await rejection(pair(store)({ path: CLAIM, data: 'c' }, { path: EVENT, data: 'e' }, () => undefined));
    expect(StoreError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'backend_error', operation: 'writeIfAbsent', path: CLAIM });
    expect(((error as StoreError).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(hooks.removed).toBe(2);
    expect(await store.exists(CLAIM)).toBe(false);
  });

  it('reports an event file that cannot be written as a failed write of it, leaving no temp file', async () => {
    const { root, store } = fresh(durability);
    hooks.failName = 'event-00000-a.json';
    let called = 0;
    const error = await rejection(pair(store)({ path: CLAIM, data: 'c' }, { path: EVENT, data: 'e' }, () => called++));
    expect(error).toMatchObject({ code: 'backend_error', operation: 'write', path: EVENT });
    // With 'fsync' both temps are written before the claim is made, so nothing is claimed; without, the
    // file's temp is written after the claim, which stays (as after writeIfAbsent, then a failed write).
    const claimed = durability === 'none';
    expect(called).toBe(claimed ? 1 : 0);
    expect(existsSync(join(root, CLAIM))).toBe(claimed);
    expect(names(join(root, 'c/events'))).toEqual(['.slots']);
    expect(names(join(root, 'c/events/.slots')).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });

  it('reports a claim that cannot be written as a failed writeIfAbsent, leaving no temp file', async () => {
    const { root, store } = fresh(durability);
    hooks.failName = '00000.json';
    let called = 0;
    const error = await rejection(pair(store)({ path: CLAIM, data: 'c' }, { path: EVENT, data: 'e' }, () => called++));
    expect(error).toMatchObject({ code: 'backend_error', operation: 'writeIfAbsent', path: CLAIM });
    expect(called).toBe(0);
    expect(names(join(root, 'c/events'))).toEqual(['.slots']);
    expect(names(join(root, 'c/events/.slots'))).toEqual([]);
  });

  it('reports the listing versions of the file’s directory around the pair', async () => {
    const { store } = fresh(durability);
    await store.write('c/events/seed.json', 'seed');
    const before = await store.listingVersion!('c/events');
    let reported: { before: string; after: string } | undefined;
    const onVersions = (b: string, a: string) => {
      reported = { before: b, after: a };
    };
    await pair(store)({ path: CLAIM, data: 'c' }, { path: EVENT, data: 'e' }, () => undefined, { onVersions });
    expect(reported?.before).toBe(before);
    expect(reported?.after).toBe(await store.listingVersion!('c/events'));
    expect(reported?.after).not.toBe(before);
  });

  it('writes the file afresh when its directory is removed between the claim and the file', async () => {
    const { root, store } = fresh(durability);
    // A concurrent delete of the whole log: the directory this call opened is gone, and `write` makes it again.
    const created = await pair(store)({ path: CLAIM, data: 'c' }, { path: EVENT, data: 'e' }, () =>
      rmSync(join(root, 'c/events'), { recursive: true }),
    );
    expect(created).toBe(true);
    expect(await store.read(EVENT)).toBe('e');
    expect(names(join(root, 'c/events'))).toEqual(['event-00000-a.json']);
  });

  it('writes a claim in the file’s own directory under the one walk, reporting its versions', async () => {
    const { root, store } = fresh(durability);
    let reported = 0;
    const created = await pair(store)(
      { path: 'd/claim.json', data: 'c' },
      { path: 'd/file.json', data: 'f' },
      () => undefined,
      { onVersions: () => reported++ },
    );
    expect(created).toBe(true);
    expect(reported).toBe(1);
    expect(names(join(root, 'd'))).toEqual(['claim.json', 'file.json']);
  });

  it('resolves 0 for an empty batch', async () => {
    const { store } = fresh(durability);
    expect(await store.writeIfAbsentThenWriteMany!([], () => undefined)).toBe(0);
  });

  it.each([
    ['a claim', '00001.json', { operation: 'writeIfAbsent', path: 'c/events/.slots/00001.json' }],
    ['an event file', 'event-00001-b.json', { operation: 'write', path: 'c/events/event-00001-b.json' }],
  ])(
    'reports %s of a batch that cannot be written as its own call would, creating nothing',
    async (_what, failName, expected) => {
      const { root, store } = fresh(durability);
      hooks.failName = failName;
      const pairs = [0, 1].map((i) => ({
        first: { path: `c/events/.slots/0000${i}.json`, data: `c${i}` },
        second: { path: `c/events/event-0000${i}-${'ab'[i]}.json`, data: `e${i}` },
      }));
      const error = await rejection(store.writeIfAbsentThenWriteMany!(pairs, () => undefined));
      expect(error).toMatchObject({ code: 'backend_error', ...expected });
      expect(names(join(root, 'c/events'))).toEqual(['.slots']);
      expect(names(join(root, 'c/events/.slots'))).toEqual([]);
    },
  );

  it('writes a batch one pair at a time when the directory it opened is removed before any claim', async () => {
    const { root, store } = fresh(durability);
    hooks.removals = 1;
    const pairs = [0, 1].map((i) => ({
      first: { path: `c/events/.slots/0000${i}.json`, data: `c${i}` },
      second: { path: `c/events/event-0000${i}-${'ab'[i]}.json`, data: `e${i}` },
    }));
    expect(await store.writeIfAbsentThenWriteMany!(pairs, () => undefined)).toBe(2);
    expect(hooks.removed).toBe(1);
    expect(names(join(root, 'c/events'))).toEqual(['.slots', 'event-00000-a.json', 'event-00001-b.json']);
  });

  it.each([
    ['a body', 'event-00001-b.json', { operation: 'write', path: 'c/events/.slots/event-00001-b.json' }],
    ['a claim', '00001.json', { operation: 'writeIfAbsent', path: 'c/events/.slots/00001.json' }],
  ])(
    'reports %s of a linked batch that cannot be written as its own call would, creating nothing',
    async (_what, failName, expected) => {
      const { root, store } = fresh(durability);
      hooks.failName = failName;
      const items = [0, 1].map((i) => ({
        first: { path: `c/events/.slots/0000${i}.json`, data: `c${i}` },
        body: { path: `c/events/.slots/event-0000${i}-${'ab'[i]}.json`, data: `e${i}` },
        linkAt: `c/events/event-0000${i}-${'ab'[i]}.json`,
      }));
      const error = await rejection(store.writeIfAbsentThenLinkMany!(items, () => undefined));
      expect(error).toMatchObject({ code: 'backend_error', backendCode: 'ENOSPC', ...expected });
      expect(names(join(root, 'c/events'))).toEqual(['.slots']);
      expect(names(join(root, 'c/events/.slots'))).toEqual([]);
    },
  );

  it('rejects with what onCreated threw, keeping the claim and leaving neither the file nor its temp', async () => {
    const { root, store } = fresh(durability);
    const thrown = new Error('caller failed');
    const error = await rejection(
      pair(store)({ path: CLAIM, data: 'c' }, { path: EVENT, data: 'e' }, () => {
        throw thrown;
      }),
    );
    expect(error).toBe(thrown);
    expect(await store.read(CLAIM)).toBe('c');
    expect(names(join(root, 'c/events'))).toEqual(['.slots']);
  });
});
