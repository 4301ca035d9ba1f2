import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeaseLostError, writeUnderLease } from '@x/store';
import {
  connectPostgres,
  createPostgresFileStore,
  type PostgresDatabase,
  PostgresEventLog,
  PostgresLeases,
} from '@x/store-postgres';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Conversation } from '../src/index.js';
import { stallingTool } from './support/stalling-tool.js';

// On PostgreSQL the run's base_state.json write carries its lease as the upsert's fence: the database alone decides.
// A's run stalls in a tool; another replica (B) takes the lease over (the row expired, moved into the past so
// nothing waits for a ttl) and writes its base_state. A's own lease has noticed nothing (its next renewal is a third
// of a minute away), so only the fenced upsert can refuse A's checkpoint.

let server: PostgresServer;
let testDatabase: TestDatabase;
const connections: PostgresDatabase[] = [];
let dir: string;
beforeAll(async () => {
  server = await startPostgresServer();
  testDatabase = await createTestDatabase(server.url);
});
afterAll(async () => {
  await testDatabase?.drop();
  await server?.stop();
});
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe('a stale owner’s checkpoint on PostgreSQL', () => {
  it('is written while its lease holds and refused by the fenced upsert once another replica took it over', async () => {
    dir = await mkdtemp(join(tmpdir(), 'x-pg-stale-checkpoint-'));
    const a = await connectPostgres({ url: testDatabase.url });
    const b = await connectPostgres({ url: testDatabase.url });
    connections.push(a, b);
    const stall = stallingTool();
    const onA = await Conversation.create({
      agent: stall.agent(),
      workspace: dir,
      store: createPostgresFileStore(a),
      leases: new PostgresLeases(a, { owner: 'a', ttlMs: 60_000 }),
      openEventLog: ({ conversationId }) => PostgresEventLog.open(a, { logId: conversationId }),
    });
    await onA.sendMessage('go');
    const runOnA = onA.run().catch((caught: unknown) => caught);
    await stall.started;
    const storeB = createPostgresFileStore(b);
    const path = `${onA.directory}/base_state.json`;
    // While A holds the lease its fenced checkpoint lands (the fence names the lease row it holds).
    await onA.checkpoint();
    expect(JSON.parse(await storeB.read(path))).toMatchObject({ execution_status: 'running' });

    await b.query(
      `UPDATE ${b.tablePrefix}leases SET expires_at = clock_timestamp() - interval '1 second' WHERE lease_key = $1`,
      [onA.directory],
    );
    const takenByB = await new PostgresLeases(b, { owner: 'b', ttlMs: 60_000 }).acquire(onA.directory);
    // The run's lease is not A's first: its creation's and its message's checkpoints took one each, briefly.
    expect(takenByB).toMatchObject({ previous: 'expired' });
    await writeUnderLease(storeB, path, '{"written_by":"b"}', takenByB);

    const refused = await onA.checkpoint().catch((caught: unknown) => caught);
    expect(LeaseLostError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ leaseKey: onA.directory, generation: takenByB.generation - 1 });
    expect(await storeB.read(path)).toBe('{"written_by":"b"}');

    // Let go, A's run stops at its next (fenced) append; its checkpoint on the way out is refused too.
    stall.release();
    const error = await runOnA;
    expect(LeaseLostError.isInstance(error) || LeaseLostError.isInstance((error as Error).cause)).toBe(true);
    expect(await storeB.read(path)).toBe('{"written_by":"b"}');
    await takenByB.release();
  });
});
