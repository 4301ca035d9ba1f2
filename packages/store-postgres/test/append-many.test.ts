import { DuplicateEventIdError, LeaseLostError } from '@x/store';
import { contractMessageEvent } from '@x/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDatabase } from '../src/database.js';
import { MAX_BOUND_ROWS } from '../src/event-log/insert-events.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { recordingDatabase } from './helpers/recording-database.js';
import { freshTablesShared } from './helpers/shared-database.js';

const open: PostgresDatabase[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

/** `count` separate connections to one set of fresh tables, closed after the test. */
async function tables(count: number): Promise<PostgresDatabase[]> {
  const databases = await freshTablesShared(count);
  open.push(...databases);
  return databases;
}

async function storedIds(database: PostgresDatabase, logId: string): Promise<string[]> {
  const rows = await database.query<{ event_id: string }>(
    `SELECT event_id FROM ${database.tablePrefix}events WHERE log_id = $1 ORDER BY idx`,
    [logId],
  );
  return rows.map((row) => row.event_id);
}

const batchOf = (label: string, size: number) =>
  Array.from({ length: size }, (_, k) => contractMessageEvent(`${label} ${k}`));

const indicesFrom = (start: number, count: number) => Array.from({ length: count }, (_, k) => start + k);

describe('PostgresEventLog.appendMany', () => {
  it('writes an uncontended batch with one INSERT and nothing else, chained as single appends are', async () => {
    const [plain] = await tables(1);
    const { database, recording } = recordingDatabase(plain!);
    const log = await PostgresEventLog.open(database, { logId: 'one-trip' });
    await log.append(contractMessageEvent('first'));
    recording.clear();
    const batch = batchOf('batch', 5);
    expect(await log.appendMany(batch)).toEqual([1, 2, 3, 4, 5]);
    expect(recording.statements).toHaveLength(1);
    expect(recording.statements[0]).toMatch(/^INSERT INTO \S+events /);
    expect(recording.transactions).toBe(0);

    // Fenced, it is still one statement: the lease check is part of it.
    const lease = await new PostgresLeases(plain!, { owner: 'a' }).acquire('conversation:one-trip');
    const fenced = await log.withFence(lease);
    recording.clear();
    expect(await fenced.appendMany(batchOf('fenced', 5))).toEqual([6, 7, 8, 9, 10]);
    expect(recording.statements).toHaveLength(1);
    expect(recording.statements[0]).toMatch(/^WITH fence AS .* FOR SHARE\) INSERT INTO/);
    await lease.release();

    const reader = await PostgresEventLog.open(plain!, { logId: 'one-trip' });
    expect((await reader.range(1, 6)).map((event) => event.id)).toEqual(batch.map((event) => event.id));
    expect(await reader.verifyChain()).toMatchObject({ status: 'verified', length: 11, chainedFrom: 0 });
  });

  it('writes none of a batch when the database refuses one of its rows after inserting the one before', async () => {
    const [a, b] = await tables(2);
    const { database, recording } = recordingDatabase(a!);
    const writer = await PostgresEventLog.open(database, { logId: 'atomic' });
    const rival = await PostgresEventLog.open(b!, { logId: 'atomic' });
    await rival.append(contractMessageEvent('rival 0'));
    // The writer's append meets the rival's index, so its next appends take the log's lock and the first free
    // index: no index conflict can stop the batch below before its second row.
    expect(await writer.append(contractMessageEvent('writer 0'))).toBe(1);
    const taken = contractMessageEvent('appended by the rival');
    expect(await rival.append(taken)).toBe(2);

    recording.clear();
    const batch = [contractMessageEvent('before'), taken, contractMessageEvent('after')];
    const refused = await writer.appendMany(batch).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(DuplicateEventIdError);
    expect(refused).toMatchObject({ eventId: taken.id, existingIndex: 2 });
    // The database inserted 'before' at index 3, then refused the event id of row 4: the statement rolled back.
    expect(recording.failures).toEqual([{ state: '23505', constraint: expect.stringMatching(/event_id_key$/) }]);
    expect(await storedIds(a!, 'atomic')).toEqual([rival.idAt(0), writer.idAt(1), taken.id]);
    expect(writer.length).toBe(3);

    expect(await writer.appendMany([batch[0]!, batch[2]!])).toEqual([3, 4]);
    expect(await writer.verifyChain()).toMatchObject({ status: 'verified', length: 5 });
  });

  it('writes none of a batch holding an event another instance appended unseen, and says which', async () => {
    const [a, b] = await tables(2);
    const writer = await PostgresEventLog.open(a!, { logId: 'stale' });
    const rival = await PostgresEventLog.open(b!, { logId: 'stale' });
    const taken = contractMessageEvent('appended by the rival');
    await rival.append(taken);
    const refused = await writer
      .appendMany([contractMessageEvent('x'), taken, contractMessageEvent('y')])
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(DuplicateEventIdError);
    expect(refused).toMatchObject({ eventId: taken.id, existingIndex: 0 });
    expect(await storedIds(a!, 'stale')).toEqual([taken.id]);
  });

  it('gives batches of 3 from 4 concurrent writers contiguous, distinct indices, each batch consecutive', async () => {
    const writers = 4;
    const batches = 10;
    const databases = (await tables(writers)).map((database) => recordingDatabase(database));
    const logs = await Promise.all(databases.map(({ database }) => PostgresEventLog.open(database, { logId: 'race' })));
    const written = await Promise.all(
      logs.map(async (log, writer) => {
        const results: { ids: string[]; indices: number[] }[] = [];
        for (let round = 0; round < batches; round++) {
          const batch = batchOf(`w${writer} b${round}`, 3);
          results.push({ ids: batch.map((event) => event.id), indices: await log.appendMany(batch) });
        }
        return results;
      }),
    );
    // Every first batch aimed at index 0: all but one writer met a rival and took the locked path.
    expect(databases.reduce((sum, { recording }) => sum + recording.transactions, 0)).toBeGreaterThan(0);
    const all = written.flat();
    for (const { indices } of all) expect(indices).toEqual([indices[0], indices[0]! + 1, indices[0]! + 2]);
    const total = writers * batches * 3;
    expect(all.flatMap(({ indices }) => indices).sort((x, y) => x - y)).toEqual(
      Array.from({ length: total }, (_, index) => index),
    );
    const reader = await PostgresEventLog.open(databases[0]!.database, { logId: 'race' });
    expect(reader.length).toBe(total);
    for (const { ids, indices } of all) expect(indices.map((index) => reader.idAt(index))).toEqual(ids);
    expect(await reader.verifyChain()).toMatchObject({ status: 'verified', length: total, chainedFrom: 0 });
  });

  it('writes nothing of a fenced batch once the lease was taken over, on either path', async () => {
    const [plain] = await tables(1);
    const leases = new PostgresLeases(plain!, { owner: 'a' });
    const lease = await leases.acquire('conversation:fenced');
    const log = await PostgresEventLog.open(plain!, { logId: 'fenced', fence: lease });
    const { database, recording } = recordingDatabase(plain!);
    const queued = await PostgresEventLog.open(database, { logId: 'fenced', fence: lease });
    expect(await log.appendMany(batchOf('held', 2))).toEqual([0, 1]);
    // `queued` meets `log`'s rows: it now appends under the log's lock.
    expect(await queued.appendMany(batchOf('queued', 1))).toEqual([2]);

    await lease.release();
    const taken = await new PostgresLeases(plain!, { owner: 'b' }).acquire('conversation:fenced');
    const zombie = batchOf('zombie', 2);
    for (const instance of [log, queued]) {
      recording.clear();
      const refused = await instance.appendMany(zombie).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(LeaseLostError);
      expect(refused).toMatchObject({ leaseKey: 'conversation:fenced', generation: 1 });
      expect(instance.length).toBe(instance === log ? 2 : 3);
    }
    expect(recording.transactions).toBe(1);
    expect(await storedIds(plain!, 'fenced')).toHaveLength(3);

    const current = await log.withFence(taken);
    expect(await current.appendMany(zombie)).toEqual([3, 4]);
    expect(await current.verifyChain()).toMatchObject({ status: 'verified', length: 5 });
    await taken.release();
  });

  it('writes a batch too large to bind row by row as one statement too: fenced, queued on the lock, plain', async () => {
    const [plain] = await tables(1);
    const { database, recording } = recordingDatabase(plain!);
    const size = MAX_BOUND_ROWS + 1;
    const stale = await PostgresEventLog.open(database, { logId: 'large' });
    const lease = await new PostgresLeases(plain!, { owner: 'a' }).acquire('conversation:large');
    const fenced = await stale.withFence(lease);
    recording.clear();
    expect(await fenced.appendMany(batchOf('fenced', size))).toEqual(indicesFrom(0, size));
    expect(recording.statements).toHaveLength(1);
    await lease.release();

    // `stale` has not seen those rows: its batch meets them, and goes again under the log's lock.
    recording.clear();
    expect(await stale.appendMany(batchOf('queued', size))).toEqual(indicesFrom(size, size));
    expect(recording.failures).toEqual([{ state: '23505', constraint: expect.stringMatching(/_pkey$/) }]);
    expect(recording.transactions).toBe(1);

    const fresh = await PostgresEventLog.open(database, { logId: 'large' });
    recording.clear();
    expect(await fresh.appendMany(batchOf('plain', size))).toEqual(indicesFrom(2 * size, size));
    expect(recording.statements).toHaveLength(1);
    expect(await fresh.verifyChain()).toMatchObject({ status: 'verified', length: 3 * size, chainedFrom: 0 });
  });
});
