import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { startAppendWorker } from './helpers/children.js';
import { verifyLog } from './helpers/verify-log.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

describe('EventLog with several OS processes on one local directory', () => {
  it.each([
    { how: 'appends', batch: 1, layout: 'files' },
    { how: 'appendMany batches of 5', batch: 5, layout: 'files' },
    { how: 'appends', batch: 1, layout: 'segment' },
    { how: 'appendMany batches of 5', batch: 5, layout: 'segment' },
    { how: 'appendMany batches of 5', batch: 5, layout: 'segment-batched' },
  ] as const)(
    'gives 4 processes × 50 $how 200 distinct contiguous indices with every acknowledged id in place ($layout layout)',
    async ({ batch, layout }) => {
      const root = await mkdtemp(join(tmpdir(), 'x-event-log-mp-'));
      roots.push(root);
      const workers = [0, 1, 2, 3].map((n) => startAppendWorker({ root, label: `p${n}`, count: 50, batch, layout }));
      const results = await Promise.all(workers.map((worker) => worker.exited));
      for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });

      const acknowledged = new Map<number, string>();
      for (const worker of workers) {
        expect(worker.acks.size).toBe(50);
        for (const [index, id] of worker.acks) {
          expect(acknowledged.has(index), `index ${index} acknowledged twice`).toBe(false);
          acknowledged.set(index, id);
        }
      }
      const store = createLocalFileStore({ root, durability: 'none' });
      expect(await store.exists('events/.slots/segment')).toBe(layout !== 'files');
      const log = await verifyLog(store, acknowledged);
      expect(log.length).toBe(200);
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: 200 });
    },
    120_000,
  );
});
