import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { type SegmentCrashPoint, startSegmentCrashWorker } from './helpers/children.js';
import { userMessageEvent } from './helpers/events.js';
import { referenceView } from './helpers/reference-view.js';
import { collectWarnings } from './helpers/segment-stores.js';

// A segment log's writer killed (SIGKILL, a real child process) at each point of its append protocol: after its
// records are durable and before their event files are derived, after that and before the append resolves, and
// as it writes the segment index. The next open must hold every acknowledged event once, at its index (the batch
// that was committed but not acknowledged may be there too, whole), and leave the directory as the reference
// reads it: one event file per index, each the event the log holds there.

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const cases: { point: SegmentCrashPoint; at: number; batch: number }[] = [
  { point: 'derive', at: 3, batch: 2 },
  { point: 'derived', at: 3, batch: 2 },
  // The index is written every 4096 appended events: the kill lands as the first is written.
  { point: 'index', at: 1, batch: 512 },
];

describe('EventLog segment layout: its writer killed at a crash point', () => {
  it.each(cases)(
    'reopens with every acknowledged event once, and event files the reference reads ($point)',
    async ({ point, at, batch }) => {
      const root = await mkdtemp(join(tmpdir(), `x-segment-crash-${point}-`));
      roots.push(root);
      const worker = startSegmentCrashWorker({ root, point, at, batch });
      const exit = await worker.exited;
      expect(exit.signal, exit.stderr).toBe('SIGKILL');
      expect(worker.acks.size).toBeGreaterThan(0);

      const store = createLocalFileStore({ root, durability: 'none' });
      const { warnings, logger } = collectWarnings();
      const log = await EventLog.open(store, { logger });
      await log.close();
      // Every event file there is one the segment holds: none is taken in as another program's.
      expect(warnings.join('\n')).not.toMatch(/not hold|not in the segment|taken into the segment/);
      const ids = (await log.range(0)).map((event) => event.id);
      for (const [index, id] of worker.acks) expect(ids.indexOf(id), `acknowledged ${id}`).toBe(index);
      expect(new Set(ids).size).toBe(ids.length);
      // The batch the kill interrupted was committed (its records are durable before anything else is written); the
      // index is written after its batch resolved, beside the next batch's append, which may have committed or not.
      expect(point === 'index' ? [0, batch] : [batch]).toContain(ids.length - worker.acks.size);
      expect(await referenceView(root)).toEqual(ids);
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: ids.length });

      const again = await EventLog.open(store);
      const next = userMessageEvent('after the kill');
      expect(await again.append(next)).toBe(ids.length);
      await again.close();
      expect(await referenceView(root)).toEqual([...ids, next.id]);
    },
    120_000,
  );
});
