import { contractMessageEvent } from '@x/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { PostgresDatabase } from '../src/database.js';
import { conflictingRow, toEventRow } from '../src/event-log/insert-events.js';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { freshTables } from './helpers/shared-database.js';

// A batch refused because one of its event ids is taken is reported by that event's id: the id is read from the
// server's own detail of the unique violation (`Key (log_id, event_id)=(<log>, <id>) already exists.`).

let database: PostgresDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

describe('conflictingRow', () => {
  it("names the row of a batch whose id the server's unique violation names, the first when it names none", async () => {
    database = await freshTables();
    const db = database;
    const log = await PostgresEventLog.open(db, { logId: 'conflicts' });
    const taken = contractMessageEvent('taken');
    await log.append(taken);
    const rows = [toEventRow(contractMessageEvent('fresh')), toEventRow(taken)];
    const error = await db
      .query(`INSERT INTO ${db.tablePrefix}events (log_id, idx, event_id, body) VALUES ('conflicts', 7, $1, $2)`, [
        taken.id,
        rows[1]!.json,
      ])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: '23505' });
    expect(conflictingRow(error, rows).id).toBe(taken.id);
    expect(conflictingRow(new Error('no detail'), rows).id).toBe(rows[0]!.id);
  });
});
