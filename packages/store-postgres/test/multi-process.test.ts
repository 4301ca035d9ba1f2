import { afterEach, describe, expect, inject, it } from 'vitest';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';
import { type Child, startChild } from './helpers/children.js';

const databases: TestDatabase[] = [];
const children: Child[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.child.kill('SIGKILL');
  for (const database of databases.splice(0)) await database.drop();
});

describe('PostgresEventLog with several OS processes', () => {
  it('gives 8 processes × 500 appends to one log 4000 contiguous indices, no duplicate, every ack in place', async () => {
    const testDatabase = await createTestDatabase(inject('postgresUrl'));
    databases.push(testDatabase);
    const database = await testDatabase.connect();
    const workers = Array.from({ length: 8 }, (_, n) =>
      startChild('append-worker', [testDatabase.url, 'shared', `p${n}`, '500']),
    );
    children.push(...workers);
    const results = await Promise.all(workers.map((worker) => worker.exited));
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });

    const acknowledged = new Map<number, string>();
    for (const worker of workers) {
      const acks = worker.lines.filter((line) => line.startsWith('ack '));
      expect(acks).toHaveLength(500);
      for (const line of acks) {
        const [, index, id] = line.split(' ');
        expect(acknowledged.has(Number(index)), `index ${index} acknowledged twice`).toBe(false);
        acknowledged.set(Number(index), id!);
      }
    }
    const log = await PostgresEventLog.open(database, { logId: 'shared' });
    expect(log.length).toBe(4000);
    const rows = await database.query<{ count: string; max: number; ids: string }>(
      'SELECT count(*) AS count, max(idx) AS max, count(DISTINCT event_id) AS ids FROM x_events WHERE log_id = $1',
      ['shared'],
    );
    expect(rows[0]).toEqual({ count: '4000', max: 3999, ids: '4000' });
    for (const [index, id] of acknowledged) expect(log.idAt(index)).toBe(id);
  }, 540_000);

  it('refuses the appends of an owner that was paused past its lease once another took over', async () => {
    const testDatabase = await createTestDatabase(inject('postgresUrl'));
    databases.push(testDatabase);
    await (await testDatabase.connect()).close();
    const first = startChild('lease-holder', [testDatabase.url, 'conversation:x', 'x', '3000']);
    children.push(first);
    expect(await first.line(/^ready/)).toBe('ready 1 none');
    first.send('append before');
    expect(await first.line(/^(ack|refused)/)).toBe('ack 0');
    // A stopped process (GC pause, frozen VM) renews nothing: the database clock lets the lease expire.
    first.child.kill('SIGSTOP');
    const second = startChild('lease-holder', [testDatabase.url, 'conversation:x', 'x', '3000', '60000']);
    children.push(second);
    expect(await second.line(/^ready/)).toBe('ready 2 expired');
    second.send('append after');
    expect(await second.line(/^(ack|refused)/)).toBe('ack 1');
    first.child.kill('SIGCONT');
    first.send('append zombie');
    expect(await first.line(/^(ack 1|ack 2|refused)/)).toBe('refused lease_lost');
    const log = await PostgresEventLog.open(await testDatabase.connect(), { logId: 'x' });
    expect(log.length).toBe(2);
  }, 120_000);
});
