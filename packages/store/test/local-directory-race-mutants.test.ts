import { mkdtempSync, rmdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../src/errors.js';
import { createLocalFileStore } from '../src/local-file-store.js';

/**
 * Stands in for a concurrent `delete` that prunes a directory the moment after a write opened it (a race no
 * test can time by itself): the next `removals` opens that create a directory remove it again at once.
 */
const race = vi.hoisted(() => ({ root: '', removals: 0, removed: 0 }));

vi.mock('../src/internal/confined-directory.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/internal/confined-directory.js')>();
  return {
    ...actual,
    openDirectory: async (...args: Parameters<typeof actual.openDirectory>) => {
      const [, segments, options] = args;
      const handle = await actual.openDirectory(...args);
      if (options.create && segments.length > 0 && race.removals > 0) {
        race.removals--;
        race.removed++;
        rmdirSync(join(race.root, ...segments));
      }
      return handle;
    },
  };
});

const base = mkdtempSync(join(tmpdir(), 'x-store-race-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

beforeEach(() => {
  race.removals = 0;
  race.removed = 0;
});

function makeStore(durability: 'fsync' | 'none') {
  race.root = join(base, `${durability}-${++counter}`);
  return createLocalFileStore({ root: race.root, durability });
}

describe('local FileStore when a concurrent delete removes the directory it just opened', () => {
  for (const durability of ['fsync', 'none'] as const) {
    it(`opens the directory again and completes write, writeIfAbsent and copy (durability: ${durability})`, async () => {
      const store = makeStore(durability);
      await store.write('seed.json', 'seed');

      race.removals = 1;
      await store.write('a/x.json', 'written');
      race.removals = 1;
      expect(await store.writeIfAbsent('b/x.json', 'created')).toBe(true);
      race.removals = 1;
      await store.copy('seed.json', 'c/x.json');

      expect(race.removed).toBe(3);
      expect(await store.read('a/x.json')).toBe('written');
      expect(await store.read('b/x.json')).toBe('created');
      expect(await store.read('c/x.json')).toBe('seed');
    });

    it(`gives up with the system's error when it loses the race twice in a row (durability: ${durability})`, async () => {
      const store = makeStore(durability);
      race.removals = 3;
      const error = await store.write('a/x.json', 'lost').then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(StoreError.isInstance(error)).toBe(true);
      expect((error as StoreError).code).toBe('backend_error');
      expect(((error as StoreError).cause as NodeJS.ErrnoException).code).toBe('ENOENT');
      // One retry only: a directory that keeps vanishing is someone else's decision, not a race to win.
      expect(race.removed).toBe(2);
      expect(await store.exists('a/x.json')).toBe(false);
    });
  }
});
