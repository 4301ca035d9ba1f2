import { generateKeyPairSync } from 'node:crypto';
import { computeChainHash } from '@x/store';
import { contractMessageEvent } from '@x/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDatabase } from '../src/database.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { freshTables } from './helpers/shared-database.js';

let database: PostgresDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

async function logWith(count: number): Promise<{ log: PostgresEventLog; ids: string[]; db: PostgresDatabase }> {
  database = await freshTables();
  const log = await PostgresEventLog.open(database, { logId: 'chained' });
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const event = contractMessageEvent(`m${index}`);
    await log.append(event);
    ids.push(event.id);
  }
  return { log, ids, db: database };
}

/** Gives row `index` another prev (its own hash recomputed over it), with the chaining trigger off. */
async function forgePrev(db: PostgresDatabase, index: number): Promise<void> {
  const table = `${db.tablePrefix}events`;
  const [row] = await db.query<{ body: string }>(`SELECT body FROM ${table} WHERE idx = $1`, [index]);
  const prev = 'f'.repeat(64);
  await db.query(`ALTER TABLE ${table} DISABLE TRIGGER ${db.tablePrefix}events_chain`);
  await db.query(`UPDATE ${table} SET prev_hash = $1, hash = $2 WHERE idx = $3`, [
    prev,
    computeChainHash(index, prev, row!.body),
    index,
  ]);
}

describe('the tamper-evident chain on PostgreSQL', () => {
  it('links every row to the one before it, whichever path appended it', async () => {
    const { log, db } = await logWith(3);
    // A second instance appends too (its first append meets a conflict and takes the locked path).
    const other = await PostgresEventLog.open(db, { logId: 'chained' });
    const stale = await PostgresEventLog.open(db, { logId: 'chained' });
    await other.append(contractMessageEvent('m3'));
    await stale.append(contractMessageEvent('m4'));
    expect(await log.verifyChain()).toMatchObject({ status: 'verified', length: 5, chainedFrom: 0 });
  });

  it('names the row whose text was changed', async () => {
    const { log, ids, db } = await logWith(4);
    await db.query(`UPDATE ${db.tablePrefix}events SET body = replace(body, 'm2', 'mX') WHERE idx = 2`);
    expect((await log.verifyChain()).problem).toMatchObject({ kind: 'altered', index: 2, id: ids[2] });
  });

  it('names a removed row, and a row inserted without a link', async () => {
    const { log, db } = await logWith(4);
    await db.query(`DELETE FROM ${db.tablePrefix}events WHERE idx = 1`);
    expect((await log.verifyChain()).problem).toMatchObject({ kind: 'removed', index: 1 });

    const second = await logWith(3);
    const forged = contractMessageEvent('forged');
    await second.db.query(
      `ALTER TABLE ${second.db.tablePrefix}events DISABLE TRIGGER ${second.db.tablePrefix}events_chain`,
    );
    await second.db.query(
      `INSERT INTO ${second.db.tablePrefix}events (log_id, idx, event_id, body) VALUES ('chained', 3, $1, $2)`,
      [forged.id, JSON.stringify(forged)],
    );
    expect((await second.log.verifyChain()).problem).toMatchObject({ kind: 'inserted', index: 3, id: forged.id });
  });

  it('names the first row whose link was cleared, not the last, when the chain start was stripped', async () => {
    for (const stripped of [1, 2, 3]) {
      const { log, db } = await logWith(5);
      const table = `${db.tablePrefix}events`;
      await db.query(`ALTER TABLE ${table} DISABLE TRIGGER ${db.tablePrefix}events_chain`);
      await db.query(`UPDATE ${table} SET hash = NULL, prev_hash = NULL WHERE idx < $1`, [stripped]);
      expect((await log.verifyChain()).problem, `links 0…${stripped - 1} cleared`).toMatchObject({
        kind: 'removed',
        index: 0,
        message:
          stripped === 1
            ? 'event 0 is missing from the chain: event 1 chains to it'
            : `event 0 is where the chain starts, but the links of events 0…${stripped - 1} are missing: event ${stripped} chains to them`,
      });
      await database?.close();
      database = undefined;
    }
  });

  it('names the row whose own link was forged with another prev, not the row before it', async () => {
    const { log, ids, db } = await logWith(5);
    const table = `${db.tablePrefix}events`;
    const [row] = await db.query<{ body: string }>(`SELECT body FROM ${table} WHERE idx = 2`);
    const prev = 'f'.repeat(64);
    await db.query(`ALTER TABLE ${table} DISABLE TRIGGER ${db.tablePrefix}events_chain`);
    await db.query(`UPDATE ${table} SET prev_hash = $1, hash = $2 WHERE idx = 2`, [
      prev,
      computeChainHash(2, prev, row!.body),
    ]);
    expect((await log.verifyChain()).problem).toEqual({
      kind: 'altered',
      index: 2,
      id: ids[2],
      message: `event 2 (${ids[2]}) has a forged chain link: it chains to a hash event 1 does not have`,
    });
  });

  it('names the last row when its own link was forged with another prev, not the row before it', async () => {
    const { log, ids, db } = await logWith(5);
    await forgePrev(db, 4);
    expect((await log.verifyChain()).problem).toEqual({
      kind: 'altered',
      index: 4,
      id: ids[4],
      message: `event 4 (${ids[4]}) chains to a hash event 3 does not have (its own link was forged, or event 3 was replaced: no later row or signed head tells which)`,
    });
  });

  it('tells a forged last link from a replaced row before it by the signed head', async () => {
    const { log, ids, db } = await logWith(5);
    const table = `${db.tablePrefix}events`;
    await log.signChainHead(generateKeyPairSync('ed25519').privateKey);
    const [before] = await db.query<{ body: string; prev_hash: string; hash: string }>(
      `SELECT body, prev_hash, hash FROM ${table} WHERE idx = 3`,
    );
    await forgePrev(db, 4);
    expect((await log.verifyChain()).problem).toMatchObject({
      index: 4,
      id: ids[4],
      message: `event 4 (${ids[4]}) has a forged chain link: it chains to a hash event 3 does not have`,
    });
    // Row 4 as it was; row 3 replaced instead, its link recomputed over its new text: the head still names row 4.
    await db.query(`UPDATE ${table} SET prev_hash = $1, hash = $2 WHERE idx = 4`, [
      before!.hash,
      computeChainHash(
        4,
        before!.hash,
        (await db.query<{ body: string }>(`SELECT body FROM ${table} WHERE idx = 4`))[0]!.body,
      ),
    ]);
    expect((await log.verifyChain()).status).toBe('verified');
    const body = before!.body.replace('m3', 'mX');
    await db.query(`UPDATE ${table} SET body = $1, hash = $2 WHERE idx = 3`, [
      body,
      computeChainHash(3, before!.prev_hash, body),
    ]);
    expect((await log.verifyChain()).problem).toEqual({
      kind: 'altered',
      index: 3,
      id: ids[3],
      message: `event 3 (${ids[3]}) was replaced: event 4 chains to a different hash`,
    });
  });

  it('finds where a chain started after unchained rows, when its first links were cleared', async () => {
    const { log, db } = await logWith(0);
    const table = `${db.tablePrefix}events`;
    const trigger = `${db.tablePrefix}events_chain`;
    // Two rows from before the chain (no links), then a chain of three from event 2.
    await db.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
    for (const text of ['old0', 'old1']) await log.append(contractMessageEvent(text));
    await db.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
    for (const text of ['m2', 'm3', 'm4']) await log.append(contractMessageEvent(text));
    expect(await log.verifyChain()).toMatchObject({ status: 'verified', chainedFrom: 2 });
    await db.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
    await db.query(`UPDATE ${table} SET hash = NULL, prev_hash = NULL WHERE idx IN (2, 3)`);
    expect((await log.verifyChain()).problem).toMatchObject({
      kind: 'removed',
      index: 2,
      message: 'event 2 is where the chain starts, but the links of events 2…3 are missing: event 4 chains to them',
    });
  });

  it('names the row that was replaced (its link recomputed over its new text) by index and id', async () => {
    const { log, ids, db } = await logWith(5);
    const table = `${db.tablePrefix}events`;
    const [row] = await db.query<{ body: string; prev_hash: string }>(
      `SELECT body, prev_hash FROM ${table} WHERE idx = 2`,
    );
    const body = row!.body.replace('m2', 'mX');
    await db.query(`ALTER TABLE ${table} DISABLE TRIGGER ${db.tablePrefix}events_chain`);
    await db.query(`UPDATE ${table} SET body = $1, hash = $2 WHERE idx = 2`, [
      body,
      computeChainHash(2, row!.prev_hash, body),
    ]);
    expect((await log.verifyChain()).problem).toEqual({
      kind: 'altered',
      index: 2,
      id: ids[2],
      message: `event 2 (${ids[2]}) was replaced: event 3 chains to a different hash`,
    });
  });

  it('names a forged link on the last row of a page of the check (row 999), as on any other row', async () => {
    database = await freshTables();
    const db = database;
    const log = await PostgresEventLog.open(db, { logId: 'chained' });
    const events = Array.from({ length: 1002 }, (_, index) => contractMessageEvent(`m${index}`));
    for (let from = 0; from < events.length; from += 250) await log.appendMany(events.slice(from, from + 250));
    const table = `${db.tablePrefix}events`;
    const [row] = await db.query<{ body: string }>(`SELECT body FROM ${table} WHERE idx = 999`);
    const prev = 'f'.repeat(64);
    await db.query(`ALTER TABLE ${table} DISABLE TRIGGER ${db.tablePrefix}events_chain`);
    await db.query(`UPDATE ${table} SET prev_hash = $1, hash = $2 WHERE idx = 999`, [
      prev,
      computeChainHash(999, prev, row!.body),
    ]);
    expect((await log.verifyChain()).problem).toMatchObject({ kind: 'altered', index: 999, id: events[999]!.id });
  });

  it('signs the head: truncation after signing and a wrong key are reported', async () => {
    const { log, db } = await logWith(3);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    expect(await log.signChainHead(privateKey)).toMatchObject({ length: 3 });
    await log.append(contractMessageEvent('after signing'));
    expect(await log.verifyChain({ publicKey })).toMatchObject({
      status: 'verified',
      signature: 'valid',
      signedLength: 3,
    });
    const other = generateKeyPairSync('ed25519').publicKey;
    expect((await log.verifyChain({ publicKey: other })).signature).toBe('invalid');
    await db.query(`DELETE FROM ${db.tablePrefix}events WHERE idx >= 1`);
    expect((await log.verifyChain({ publicKey })).problem).toMatchObject({
      kind: 'removed',
      index: 1,
      message: 'events 1…2 were signed but are gone',
    });
  });

  it('verifies the signed head of a log of one event', async () => {
    const { log } = await logWith(1);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    expect(await log.signChainHead(privateKey)).toMatchObject({ length: 1 });
    expect(await log.verifyChain({ publicKey })).toMatchObject({
      status: 'verified',
      signature: 'valid',
      signedLength: 1,
    });
  });

  it('signs no head of an empty log, and catches a last row rewritten after signing by its signature', async () => {
    const { log, ids, db } = await logWith(0);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    expect(await log.signChainHead(privateKey)).toBeUndefined();
    expect(await db.query(`SELECT * FROM ${db.tablePrefix}chain_heads`)).toEqual([]);
    for (const text of ['m0', 'm1', 'm2']) {
      const event = contractMessageEvent(text);
      await log.append(event);
      ids.push(event.id);
    }
    await log.signChainHead(privateKey);
    // The last row replaced with a link recomputed over its new text: the chain alone still holds together.
    const table = `${db.tablePrefix}events`;
    const [row] = await db.query<{ body: string; prev_hash: string }>(
      `SELECT body, prev_hash FROM ${table} WHERE idx = 2`,
    );
    const body = row!.body.replace('m2', 'mX');
    await db.query(`ALTER TABLE ${table} DISABLE TRIGGER ${db.tablePrefix}events_chain`);
    await db.query(`UPDATE ${table} SET body = $1, hash = $2 WHERE idx = 2`, [
      body,
      computeChainHash(2, row!.prev_hash, body),
    ]);
    expect((await log.verifyChain()).status).toBe('verified');
    expect(await log.verifyChain({ publicKey })).toMatchObject({
      status: 'tampered',
      signature: 'invalid',
      problem: { kind: 'signature', index: 3, message: 'the signed head (3 events) does not match the chain' },
    });
  });
});
