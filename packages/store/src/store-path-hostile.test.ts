import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidPathError } from './errors/invalid-path-error.js';
import type { FileStore } from './file-store.js';
import { createLocalFileStore } from './local-file-store.js';
import { createMemoryFileStore } from './memory-file-store.js';
import { validateStorePath } from './store-path.js';

let root: string;
let stores: Record<string, FileStore>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-store-hostile-'));
  stores = {
    local: createLocalFileStore({ root: join(root, 'store'), durability: 'none' }),
    memory: createMemoryFileStore(),
  };
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** Paths that must be refused by every backend, for every operation, before any I/O. */
const refused = [
  '..',
  '../x',
  'a/../../x',
  'a/..',
  './x',
  'a/./b',
  '/etc/passwd',
  '//x',
  'a//b',
  'a\\..\\..\\x',
  '..\\x',
  'nul\0/x',
  'x\0',
  // Lone surrogates: the filesystem writes each as U+FFFD, so these two would be one file there.
  'a\uD800',
  'a\uDC00',
  'a'.repeat(256),
  `dir/${'é'.repeat(128)}`, // 256 UTF-8 bytes in 128 characters
  `${'d/'.repeat(600)}x`,
  'x'.repeat(5000),
];

/** Paths that only look like an escape or like another path: each is one literal file. */
const literal = [
  '%2e%2e/x',
  '%252e%252e/x',
  '..%2fx',
  '\u2025/x',
  '\uff0e\uff0e/x',
  '...',
  '~/x',
  '$HOME/x',
  'C:/x',
  'caf\u00e9',
  'cafe\u0301',
  '\uD83C\uDF89',
  'a'.repeat(255),
];

describe('store paths against hostile spellings', () => {
  it('refuses every traversal, separator, NUL and length spelling with an InvalidPathError on every backend', async () => {
    const problems: string[] = [];
    for (const [name, store] of Object.entries(stores)) {
      for (const path of refused) {
        for (const [operation, run] of [
          ['write', () => store.write(path, 'planted')],
          ['read', () => store.read(path)],
          ['exists', () => store.exists(path)],
          ['delete', () => store.delete(path)],
          ['list', () => store.list(`${path}/`)],
          ['copy', () => store.copy('seed', path)],
        ] as const) {
          await store.write('seed', 'seed');
          const outcome = await run().then(
            () => 'accepted',
            (error: unknown) => (InvalidPathError.isInstance(error) ? 'refused' : `threw ${(error as Error).message}`),
          );
          if (outcome !== 'refused')
            problems.push(`${name} ${operation} ${JSON.stringify(path.slice(0, 40))}: ${outcome}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await readdir(root)).toEqual(['store']);
  });

  it('keeps look-alike spellings as distinct literal files (NFC and NFD are two names)', async () => {
    for (const [name, store] of Object.entries(stores)) {
      for (const path of literal) {
        expect(validateStorePath(path)).toBe(path);
        await store.write(path, `content of ${path}`);
      }
      for (const path of literal) {
        expect({ name, path, content: await store.read(path) }).toEqual({ name, path, content: `content of ${path}` });
      }
    }
    expect(await readdir(root)).toEqual(['store']);
  });

  it('names the length problem', () => {
    expect(() => validateStorePath('a'.repeat(256))).toThrow(/segment longer than 255 bytes/);
    expect(() => validateStorePath(`${'d/'.repeat(600)}x`)).toThrow(/longer than 1024 bytes/);
  });
});
