import { describe, expect, it } from 'vitest';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { describeFileStoreContract } from '../src/testing/file-store-contract.js';

describeFileStoreContract('memory', () => createMemoryFileStore(), { listingVersion: true });

describe('memory FileStore', () => {
  it('never evicts, past the reference’s 100,000-entry and 20 MiB limits', async () => {
    const store = createMemoryFileStore();
    const big = 'x'.repeat(21 * 1024 * 1024);
    await store.write('big.txt', big);
    await Promise.all(Array.from({ length: 100_050 }, (_, i) => store.write(`many/${i}`, String(i))));
    expect((await store.list('many')).length).toBe(100_050);
    expect(await store.read('many/0')).toBe('0');
    expect((await store.read('big.txt')).length).toBe(big.length);
  });

  it('keeps separate instances separate and names them apart', async () => {
    const one = createMemoryFileStore();
    const two = createMemoryFileStore();
    await one.write('a.txt', '1');
    expect(await two.exists('a.txt')).toBe(false);
    expect(one.describe('a.txt')).not.toBe(two.describe('a.txt'));
    expect(one.describe('a.txt')).toMatch(/^memory:\/\/.+\/a\.txt$/);
  });
});
