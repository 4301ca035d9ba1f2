import { existsSync, lstatSync, mkdtempSync, readdirSync, rmdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLocalFileStore } from '../src/local-file-store.js';

/**
 * Stands in for a concurrent `delete` that removes a directory the moment after the store saw it with lstat
 * (a race no test can time by itself): the next lstat that finds a directory named `race.name` removes it.
 */
const race = vi.hoisted(() => ({ name: '', removed: 0, linkTo: '' }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const lstat = async (...args: Parameters<typeof actual.lstat>) => {
    const info = await actual.lstat(...args);
    const path = String(args[0]);
    if (race.name !== '' && path.endsWith(`/${race.name}`) && info.isDirectory()) {
      race.name = '';
      race.removed++;
      rmdirSync(path);
      // Or swapped for a link to a directory outside the root.
      if (race.linkTo !== '') symlinkSync(race.linkTo, path);
    }
    return info;
  };
  return { ...actual, lstat, default: { ...actual, lstat } };
});

const base = mkdtempSync(join(tmpdir(), 'x-store-confined-race-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

beforeEach(() => {
  race.name = '';
  race.removed = 0;
  race.linkTo = '';
});

async function storeWithEmptyDirectory() {
  const root = join(base, `root-${++counter}`);
  const store = createLocalFileStore({ root, durability: 'none' });
  await store.write('a/keep.json', 'k');
  await mkdir(join(root, 'a', 'gone'));
  return { root, store };
}

describe('local FileStore when a concurrent delete removes a directory it just looked at', () => {
  it('exists reports it missing and does not bring it back', async () => {
    const { root, store } = await storeWithEmptyDirectory();
    race.name = 'gone';
    expect(await store.exists('a/gone')).toBe(false);
    expect(race.removed).toBe(1);
    expect(existsSync(join(root, 'a', 'gone'))).toBe(false);
    expect(await store.read('a/keep.json')).toBe('k');
  });

  it('delete completes: there is nothing left to remove', async () => {
    const { root, store } = await storeWithEmptyDirectory();
    race.name = 'gone';
    await store.delete('a/gone');
    expect(race.removed).toBe(1);
    expect(existsSync(join(root, 'a', 'gone'))).toBe(false);
    expect(await store.read('a/keep.json')).toBe('k');
  });

  it('delete removes the link a directory was swapped for, and nothing it points to', async () => {
    const { root, store } = await storeWithEmptyDirectory();
    const outside = `${root}-outside`;
    await mkdir(outside);
    writeFileSync(join(outside, 'secret.json'), 'secret');
    race.name = 'gone';
    race.linkTo = outside;
    await store.delete('a/gone');
    expect(race.removed).toBe(1);
    expect(() => lstatSync(join(root, 'a', 'gone'))).toThrow();
    expect(readdirSync(outside)).toEqual(['secret.json']);
    expect(await store.read('a/keep.json')).toBe('k');
  });
});
