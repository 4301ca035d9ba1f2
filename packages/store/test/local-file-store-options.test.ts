import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLocalFileStore,
  InvalidStoreOptionsError,
  type LocalFileStoreOptions,
  StoreError,
} from '../src/index.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

function refusal(options: unknown): InvalidStoreOptionsError {
  try {
    createLocalFileStore(options as LocalFileStoreOptions);
  } catch (error) {
    expect(StoreError.isInstance(error)).toBe(true);
    expect(InvalidStoreOptionsError.isInstance(error)).toBe(true);
    return error as InvalidStoreOptionsError;
  }
  throw new Error(`createLocalFileStore accepted ${JSON.stringify(options)}`);
}

describe('createLocalFileStore options', () => {
  it('refuses an unknown durability rather than reading it as fsync off', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-store-options-'));
    roots.push(root);
    for (const durability of ['fsnyc', 'FSYNC', '', 'always', true, 0]) {
      const error = refusal({ root, durability });
      expect(error.code).toBe('invalid_store_options');
      expect(error.option).toBe('durability');
      expect(error.message).toContain(JSON.stringify(durability));
    }
    for (const durability of ['fsync', 'none', undefined] as const) {
      expect(() => createLocalFileStore({ root, ...(durability === undefined ? {} : { durability }) })).not.toThrow();
    }
  });

  it('refuses a missing or empty root', () => {
    for (const options of [{}, { root: '' }, { root: 42 }, undefined]) expect(refusal(options).option).toBe('root');
  });
});
