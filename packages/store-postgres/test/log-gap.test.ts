import { LogGapError } from '@x/store';
import { contractMessageEvent } from '@x/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDatabase } from '../src/database.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { freshTables } from './helpers/shared-database.js';

// A row deleted by hand (or by a foreign tool) leaves a missing index with rows past it. As the file store does for
// event files past a missing index (LogGapError), the log is read up to the gap and appends are refused: an append
// would take the missing index and put its event before the rows past it (an event inserted into history).

let database: PostgresDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

function textOf(event: unknown): string {
  return (event as { llm_message: { content: { text: string }[] } }).llm_message.content[0]!.text;
}

async function rowAt(db: PostgresDatabase, logId: string, index: number) {
  const [row] = await db.query<{ event_id: string; body: string }>(
    `SELECT event_id, body FROM ${db.tablePrefix}events WHERE log_id = $1 AND idx = $2`,
    [logId, index],
  );
  return row;
}

describe('PostgresEventLog with rows past a missing index', () => {
  it('refuses appends with LogGapError until the gap is filled, so no event is inserted before the rows past it', async () => {
    database = await freshTables();
    const db = database;
    const writer = await PostgresEventLog.open(db, { logId: 'gap' });
    await writer.appendMany([0, 1, 2, 3].map((i) => contractMessageEvent(`m${i}`)));
    const removed = (await rowAt(db, 'gap', 2))!;
    await db.query(`DELETE FROM ${db.tablePrefix}events WHERE log_id = 'gap' AND idx = 2`);

    const log = await PostgresEventLog.open(db, { logId: 'gap' });
    expect(log.length).toBe(2);
    const error = await log.append(contractMessageEvent('new')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LogGapError);
    expect(error).toMatchObject({ code: 'log_gap', missingIndex: 2, filesPastGap: 1 });
    expect((error as Error).message).toContain(`${db.tablePrefix}events (log_id 'gap'): index 2 is missing`);
    expect((error as Error).message).toContain('1 row(s) lie past it');
    await expect(log.appendMany([contractMessageEvent('batch')])).rejects.toBeInstanceOf(LogGapError);
    await expect(log.append(contractMessageEvent('expected'), { expectedIndex: 2 })).rejects.toBeInstanceOf(
      LogGapError,
    );
    expect(await rowAt(db, 'gap', 2)).toBeUndefined();

    // Restored, the gap is gone: the next append reads it and the rows past it, and follows them.
    await db.query(`INSERT INTO ${db.tablePrefix}events (log_id, idx, event_id, body) VALUES ('gap', 2, $1, $2)`, [
      removed.event_id,
      removed.body,
    ]);
    expect(await log.append(contractMessageEvent('m4'))).toBe(4);
    expect((await log.range(0)).map(textOf)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });

  it('reads up to a gap with a full page of rows past it, and refreshes without reading them again and again', async () => {
    database = await freshTables();
    const db = database;
    const writer = await PostgresEventLog.open(db, { logId: 'long-gap' });
    await writer.appendMany(Array.from({ length: 1200 }, (_, i) => contractMessageEvent(`m${i}`)));
    await db.query(`DELETE FROM ${db.tablePrefix}events WHERE log_id = 'long-gap' AND idx = 1`);

    const log = await PostgresEventLog.open(db, { logId: 'long-gap' });
    expect(log.length).toBe(1);
    expect(await log.refresh()).toBe(0);
    expect(log.length).toBe(1);
    await expect(log.append(contractMessageEvent('new'))).rejects.toMatchObject({
      code: 'log_gap',
      missingIndex: 1,
      filesPastGap: 1198,
    });
  }, 30_000);
});
