import { describe, expect, it } from 'vitest';
import { PACK_CHUNK, PackedReads, packThresholds } from '../src/event-log/packs.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';

/**
 * The packed read cache's numbers: when a read is worth a pack read and when a tail pack is rewritten, per chunk
 * size, and which chunk sizes a log accepts. Readers' read counts in `event-log-packs*.test.ts` follow from these.
 */

describe('packThresholds', () => {
  it('is an eighth of the chunk, between 1 and 32 events, and twice that to rewrite a tail pack', () => {
    const cases: [number, number][] = [
      [1, 1],
      [7, 1],
      [8, 1],
      [16, 2],
      [17, 2],
      [24, 3],
      [255, 31],
      [256, 32],
      [257, 32],
      [PACK_CHUNK, 32],
      [1 << 20, 32],
    ];
    for (const [chunkSize, minRead] of cases) {
      expect(packThresholds(chunkSize), `chunks of ${chunkSize}`).toEqual({ minRead, tailStep: 2 * minRead });
    }
    expect(PACK_CHUNK).toBe(1024);
  });
});

describe('packs.chunkSize', () => {
  const host = {
    store: createMemoryFileStore(),
    dir: 'events',
    warn: undefined,
    length: 0,
    nameAt: () => '',
    peek: () => undefined,
    remember: () => undefined,
    repeatsEarlierId: () => false,
    loadFiles: async () => [],
  };

  it('must be a positive integer', async () => {
    for (const chunkSize of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expect(() => new PackedReads(host, { chunkSize }), String(chunkSize)).toThrow(
        `Invalid store option 'packs.chunkSize': expected a positive integer, got ${chunkSize}`,
      );
      await expect(EventLog.open(createMemoryFileStore(), { packs: { chunkSize } })).rejects.toMatchObject({
        name: 'InvalidStoreOptionsError',
        code: 'invalid_store_options',
        option: 'packs.chunkSize',
      });
    }
    expect(() => new PackedReads(host, { chunkSize: 1 })).not.toThrow();
    expect(() => new PackedReads(host)).not.toThrow();
  });
});
