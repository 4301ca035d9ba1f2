import { setTimeout as sleep } from 'node:timers/promises';
import { contractMessageEvent } from '@x/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type PostgresDatabase } from '../src/database.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { createPostgresFileStore } from '../src/file-store/postgres-file-store.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { type PostgresServer, startPostgresServer } from '../src/testing/postgres-server.js';

// A server of its own: restarting it must not disturb the other test files.
let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('the database restarting under load', () => {
  it('loses no acknowledged append and writes none twice; leases and files wait it out', async () => {
    const writers: PostgresDatabase[] = [];
    try {
      for (let index = 0; index < 2; index++)
        writers.push(await connectPostgres({ url: server.url, maxConnections: 3 }));
      const [a, b] = writers as [PostgresDatabase, PostgresDatabase];
      const leases = new PostgresLeases(a, { ttlMs: 20_000, owner: 'writer-a' });
      const lease = await leases.acquire('conversation-1');
      const logs = [
        await PostgresEventLog.open(a, { logId: 'conversation-1', fence: lease }),
        await PostgresEventLog.open(b, { logId: 'conversation-1' }),
      ];
      const files = createPostgresFileStore(b);
      const perWriter = 150;
      let acknowledged = 0;
      const appended: string[][] = [[], []];
      const writing = logs.map(async (log, writer) => {
        for (let index = 0; index < perWriter; index++) {
          const event = contractMessageEvent(`w${writer}-${index}`);
          await log.append(event);
          appended[writer]!.push(event.id);
          acknowledged++;
        }
      });
      // A third writer appends in batches: a batch whose commit the restart hid is found whole, or written again.
      const batcher = await PostgresEventLog.open(b, { logId: 'conversation-1' });
      const batches: { ids: string[]; indices: number[] }[] = [];
      writing.push(
        (async () => {
          for (let round = 0; round < perWriter / 3; round++) {
            const batch = [0, 1, 2].map((k) => contractMessageEvent(`batch ${round}.${k}`));
            batches.push({ ids: batch.map((event) => event.id), indices: await batcher.appendMany(batch) });
          }
        })(),
      );
      while (acknowledged < 60) await sleep(5);
      // Cut every connection mid-stream; the server is back after a pause.
      await server.restart(() => sleep(300));
      await Promise.all(writing);
      await files.write('after/restart.json', '{"ok":true}');
      expect(await files.read('after/restart.json')).toBe('{"ok":true}');
      await expect(lease.assertHeld()).resolves.toBeUndefined();
      await lease.release();

      const reader = await PostgresEventLog.open(a, { logId: 'conversation-1' });
      expect(reader.length).toBe(3 * perWriter);
      const ids = (await reader.range(0)).map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of [...appended[0]!, ...appended[1]!]) expect(reader.indexOf(id)).toBeGreaterThanOrEqual(0);
      // Each writer's events are in its own order.
      for (const mine of appended) {
        const positions = mine.map((id) => reader.indexOf(id));
        expect(positions).toEqual([...positions].sort((x, y) => x - y));
      }
      for (const { ids, indices } of batches) {
        expect(indices).toEqual([indices[0], indices[0]! + 1, indices[0]! + 2]);
        expect(indices.map((index) => reader.idAt(index))).toEqual(ids);
      }
      expect(await reader.verifyChain()).toMatchObject({ status: 'verified', length: 3 * perWriter });
    } finally {
      for (const database of writers) await database.close();
    }
  }, 120_000);
});
