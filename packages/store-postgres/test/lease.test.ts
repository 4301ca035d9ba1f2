import { LeaseHeldError, LeaseLostError } from '@x/store';
import { advanceUntilSettled, contractMessageEvent, createManualClock } from '@x/store/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';

const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.drop();
});

async function fresh(): Promise<TestDatabase> {
  const database = await createTestDatabase(inject('postgresUrl'));
  databases.push(database);
  return database;
}

describe('PostgresLeases', () => {
  it('gives a lease to one owner at a time, with a new generation after each release', async () => {
    const database = await (await fresh()).connect();
    const a = new PostgresLeases(database, { owner: 'replica-a' });
    const b = new PostgresLeases(database, { owner: 'replica-b' });
    const first = await a.acquire('conversation:1');
    expect(first).toMatchObject({ generation: 1, previous: 'none' });
    const refused = await b.acquire('conversation:1').catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(LeaseHeldError);
    expect((refused as LeaseHeldError).message).toContain("held by 'replica-a'");
    await first.release();
    const second = await b.acquire('conversation:1');
    expect(second).toMatchObject({ generation: 2, previous: 'released' });
    expect(await first.renew()).toBe(false);
    await second.release();
  });

  it('lets exactly one of many racing owners take a free lease', async () => {
    const database = await (await fresh()).connect({ maxConnections: 8 });
    const owners = Array.from({ length: 8 }, (_, i) => new PostgresLeases(database, { owner: `o${i}` }));
    const results = await Promise.allSettled(owners.map((owner) => owner.acquire('conversation:race')));
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(LeaseHeldError);
    }
  });

  it('refuses fenced appends once the lease was taken over, and lets the new holder append', async () => {
    const database = await (await fresh()).connect();
    const a = new PostgresLeases(database, { owner: 'a' });
    const lease = await a.acquire('conversation:2');
    const oldLog = await PostgresEventLog.open(database, { logId: '2', fence: lease });
    expect(await oldLog.append(contractMessageEvent('before'))).toBe(0);
    // Released here so the test need not wait for an expiry (multi-process.test.ts waits for a real one).
    await lease.release();
    const taken = await new PostgresLeases(database, { owner: 'b' }).acquire('conversation:2');
    expect(taken.generation).toBe(2);
    const newLog = await oldLog.withFence(taken);
    expect(await newLog.append(contractMessageEvent('after takeover'))).toBe(1);
    const refused = await oldLog.append(contractMessageEvent('zombie')).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(LeaseLostError);
    expect(refused).toMatchObject({ leaseKey: 'conversation:2', generation: 1 });
    expect((await PostgresEventLog.open(database, { logId: '2' })).length).toBe(2);
    expect(await a.inspect('conversation:2')).toEqual({ generation: 2, owner: 'b', live: true });
  });

  it('waits for a held lease with waitMs and takes it once released', async () => {
    const database = await (await fresh()).connect();
    const a = new PostgresLeases(database, { owner: 'a' });
    const b = new PostgresLeases(database, { owner: 'b' });
    const held = await a.acquire('k');
    const waiting = b.acquire('k', { waitMs: 600_000 });
    await held.release();
    expect((await waiting).generation).toBe(2);
  });

  it('polls a live lease for waitMs by its clock, then names the holder', async () => {
    const database = await (await fresh()).connect();
    // The holder's lease lives a minute by the database's clock; the contender's wait runs on a manual clock,
    // so the test takes as long as a few round trips, however loaded the machine is.
    const held = await new PostgresLeases(database, { owner: 'a', ttlMs: 60_000 }).acquire('k');
    const clock = createManualClock();
    const contender = new PostgresLeases(database, { owner: 'b', ttlMs: 60_000, clock });
    const refused = advanceUntilSettled(clock, contender.acquire('k', { waitMs: 5_000 }), 1_000);
    await expect(refused).rejects.toBeInstanceOf(LeaseHeldError);
    await expect(refused).rejects.toThrow("held by 'a'");
    expect(clock.now()).toBeGreaterThanOrEqual(5_000);
    await held.release();
  });

  it('fences a single append by the lease it is given, on a log opened without a fence', async () => {
    const database = await (await fresh()).connect();
    const log = await PostgresEventLog.open(database, { logId: '3' });
    expect(log.fencesAppends).toBe(true);
    const first = await new PostgresLeases(database, { owner: 'a' }).acquire('conversation:3');
    expect(await log.append(contractMessageEvent('by a'), { fence: first })).toBe(0);
    await first.release();
    const second = await new PostgresLeases(database, { owner: 'b' }).acquire('conversation:3');
    const refused = await log
      .append(contractMessageEvent('stale'), { fence: first })
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ leaseKey: 'conversation:3', generation: 1 });
    expect(refused).toBeInstanceOf(LeaseLostError);
    expect(await log.append(contractMessageEvent('by b'), { expectedIndex: 1, fence: second })).toBe(1);
    expect(log.length).toBe(2);
  });

  it('lists the leases whose holder stopped renewing without releasing them (expired), not released or live ones', async () => {
    const test = await fresh();
    const live = await test.connect();
    const dying = await test.connect();
    await (await new PostgresLeases(live, { owner: 'released' }).acquire('released')).release();
    // Expiry is the database's clock, which no test can move: the lease that must stay live gets a ttl no
    // scheduling delay comes near, and only the lease that must expire gets a short one.
    const held = await new PostgresLeases(live, { owner: 'live', ttlMs: 600_000 }).acquire('live');
    const leases = new PostgresLeases(live);
    expect(await leases.expired()).toEqual([]);
    await new PostgresLeases(dying, { owner: 'dead', ttlMs: 100 }).acquire('dead');
    // The dying process loses its connections: its lease is no longer renewed and expires.
    await dying.close();
    await expect.poll(() => leases.expired(), { timeout: 120_000, interval: 50 }).toEqual(['dead']);
    expect(await leases.inspect('live')).toMatchObject({ owner: 'live', live: true });
    await held.release();
  });
});
