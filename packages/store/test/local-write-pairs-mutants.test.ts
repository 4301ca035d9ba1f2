import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalFileStore } from '../src/local-file-store.js';

// `writeIfAbsentThenWriteMany` on the local store when something fails after the claims are made: the error
// names the pair whose file failed, as its own call would, and a removed directory is written afresh.

const base = mkdtempSync(join(tmpdir(), 'x-store-pairs-mutants-'));
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));
let counter = 0;

const claim = (i: number) => `c/events/.slots/0000${i}.json`;
const file = (i: number) => `c/events/event-0000${i}-e${i}.json`;
const pairs = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    first: { path: claim(i), data: `claim ${i}` },
    second: { path: file(i), data: `event ${i}` },
  }));

function fresh(durability: 'none' | 'fsync') {
  const root = join(base, `root-${++counter}`);
  return { root, store: createLocalFileStore({ root, durability }) };
}

function names(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
}

describe.each(['none', 'fsync'] as const)('local writeIfAbsentThenWriteMany failures (durability %s)', (durability) => {
  it('writes every created pair’s file afresh when the directory is removed once the claims are made', async () => {
    const { root, store } = fresh(durability);
    const created = await store.writeIfAbsentThenWriteMany!(pairs(3), (i) => {
      if (i === 0) rmSync(join(root, 'c/events'), { recursive: true });
    });
    expect(created).toBe(3);
    expect(names(join(root, 'c/events'))).toEqual([0, 1, 2].map((i) => `event-0000${i}-e${i}.json`));
    expect(await store.read(file(2))).toBe('event 2');
  });

  it.each([0, 1])('names the file that could not be published (pair %i), keeping every claim', async (failing) => {
    const { root, store } = fresh(durability);
    // A non-empty directory at that file's name: the rename over it fails.
    await store.write(`${file(failing)}/inside.txt`, 'x');
    const error = await rejection(store.writeIfAbsentThenWriteMany!(pairs(2), () => undefined));
    expect(error).toMatchObject({ code: 'backend_error', operation: 'write', path: file(failing) });
    expect(names(join(root, 'c/events/.slots'))).toEqual(['00000.json', '00001.json']);
    expect(names(join(root, 'c/events')).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });
});
