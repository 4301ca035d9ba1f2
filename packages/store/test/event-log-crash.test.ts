import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { startAppendWorker } from './helpers/children.js';
import { userMessageEvent } from './helpers/events.js';
import { verifyLog } from './helpers/verify-log.js';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

describe('EventLog when its writer is SIGKILLed mid-append', () => {
  it.each(['files', 'segment', 'segment-batched'] as const)(
    'shows only whole events, contiguous, after each of 10 kills, and keeps accepting appends (%s layout)',
    async (layout) => {
      const root = await mkdtemp(join(tmpdir(), 'x-event-log-crash-'));
      roots.push(root);
      const acknowledged = new Map<number, string>();
      for (let round = 0; round < 10; round++) {
        const worker = startAppendWorker({
          root,
          label: `r${round}`,
          count: 'loop',
          durability: round % 2 === 0 ? 'none' : 'fsync',
          layout,
        });
        await worker.ready;
        await worker.acked(1);
        // Random moment: anywhere in the next 0–60 ms of appending.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
        worker.child.kill('SIGKILL');
        const exit = await worker.exited;
        expect(exit.signal, exit.stderr).toBe('SIGKILL');
        for (const [index, id] of worker.acks) acknowledged.set(index, id);

        const store = createLocalFileStore({ root, durability: 'none' });
        const log = await verifyLog(store, acknowledged);
        const before = log.length;
        const event = userMessageEvent(`after kill ${round}`);
        expect(await log.append(event)).toBe(before);
        acknowledged.set(before, event.id);
        expect((await verifyLog(store, acknowledged)).length).toBe(before + 1);
      }
    },
    // A safety net, not a measure: each round starts a Node child, seconds apiece on a loaded 2-core machine.
    600_000,
  );

  it('loses nothing acknowledged and keeps the chain intact when killed in the middle of appendMany batches', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-event-log-crash-many-'));
    roots.push(root);
    const acknowledged = new Map<number, string>();
    for (let round = 0; round < 6; round++) {
      const worker = startAppendWorker({
        root,
        label: `b${round}`,
        count: 'loop',
        durability: round % 2 === 0 ? 'none' : 'fsync',
        batch: 3,
      });
      await worker.ready;
      await worker.acked(3);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
      worker.child.kill('SIGKILL');
      const exit = await worker.exited;
      expect(exit.signal, exit.stderr).toBe('SIGKILL');
      for (const [index, id] of worker.acks) acknowledged.set(index, id);

      const store = createLocalFileStore({ root, durability: 'none' });
      const log = await verifyLog(store, acknowledged);
      expect(await verifyEventChain(store)).toMatchObject({ status: 'verified', length: log.length });
      const events = [userMessageEvent(`after kill ${round} a`), userMessageEvent(`after kill ${round} b`)];
      const before = log.length;
      expect(await log.appendMany(events)).toEqual([before, before + 1]);
      for (const [k, event] of events.entries()) acknowledged.set(before + k, event.id);
      expect((await verifyLog(store, acknowledged)).length).toBe(before + 2);
    }
  }, 600_000);
});
