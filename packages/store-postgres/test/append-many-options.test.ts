import { generateKeyPairSync } from 'node:crypto';
import { AppendConflictError, createSigningEventLog, LeaseLostError } from '@x/store';
import { contractMessageEvent } from '@x/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDatabase } from '../src/database.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { createPostgresFileStore } from '../src/file-store/postgres-file-store.js';
import { PostgresLeases } from '../src/lease/postgres-leases.js';
import { countingDatabase } from '../src/testing/counting-database.js';
import { freshTablesShared } from './helpers/shared-database.js';

const open: PostgresDatabase[] = [];
afterEach(async () => {
  for (const database of open.splice(0)) await database.close();
});

async function tables(count: number): Promise<PostgresDatabase[]> {
  const databases = await freshTablesShared(count);
  open.push(...databases);
  return databases;
}

const batchOf = (label: string, size: number) =>
  Array.from({ length: size }, (_, k) => contractMessageEvent(`${label} ${k}`));

// What `Conversation` does with a run lease: a step's stats update and action in one batch, at the index it expects.
describe('PostgresEventLog.appendMany with options', () => {
  it('writes a batch at the expected index, fenced, in one commit', async () => {
    const [plain] = await tables(1);
    const { database, count } = countingDatabase(plain!);
    const log = await PostgresEventLog.open(database, { logId: 'step' });
    const lease = await new PostgresLeases(plain!, { owner: 'a' }).acquire('step');
    count.reset();
    expect(await log.appendMany(batchOf('step 1', 2), { expectedIndex: 0, fence: lease })).toEqual([0, 1]);
    expect(count.commits).toBe(1);
    expect(count.statements[0]).toMatch(/^WITH fence AS .* FOR SHARE\) INSERT INTO/);
    await lease.release();
  });

  it('refuses the whole batch at another index (AppendConflictError), writing nothing', async () => {
    const [a, b] = await tables(2);
    const mine = await PostgresEventLog.open(a!, { logId: 'race' });
    const rival = await PostgresEventLog.open(b!, { logId: 'race' });
    await rival.append(contractMessageEvent('rival'));
    const refused = await mine.appendMany(batchOf('late', 2), { expectedIndex: 0 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppendConflictError);
    const reader = await PostgresEventLog.open(a!, { logId: 'race' });
    expect(reader.length).toBe(1);
  });

  it("refuses a stale owner's batch (LeaseLostError), writing none of it", async () => {
    const [a, b] = await tables(2);
    const stale = await new PostgresLeases(a!, { owner: 'stale', ttlMs: 60_000 }).acquire('taken');
    const log = await PostgresEventLog.open(a!, { logId: 'taken' });
    await log.append(contractMessageEvent('before'), { fence: stale });
    // Another owner takes it over (as after an expiry: the generation moves on); the stale one still holds its fence.
    await b!.query(
      `UPDATE ${b!.tablePrefix}leases SET generation = generation + 1, owner = 'fresh' WHERE lease_key = $1`,
      ['taken'],
    );
    const refused = await log
      .appendMany(batchOf('stale', 2), { expectedIndex: 1, fence: stale })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LeaseLostError);
    const reader = await PostgresEventLog.open(b!, { logId: 'taken' });
    expect(reader.length).toBe(1);
    await stale.release();
  });

  it('is fenced through a signing log too (the wrapper hands the options on)', async () => {
    const [plain] = await tables(1);
    const stale = await new PostgresLeases(plain!, { owner: 'stale', ttlMs: 60_000 }).acquire('signed');
    const log = createSigningEventLog(await PostgresEventLog.open(plain!, { logId: 'signed' }), {
      store: createPostgresFileStore(plain!),
      dir: 'signed',
      signer: generateKeyPairSync('ed25519').privateKey,
    });
    await plain!.query(`UPDATE ${plain!.tablePrefix}leases SET generation = generation + 1 WHERE lease_key = $1`, [
      'signed',
    ]);
    const refused = await log.appendMany!(batchOf('signed', 2), { expectedIndex: 0, fence: stale }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(LeaseLostError);
    expect((await PostgresEventLog.open(plain!, { logId: 'signed' })).length).toBe(0);
    await stale.release();
  });
});
