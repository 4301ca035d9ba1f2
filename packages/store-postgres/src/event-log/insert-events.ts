import { type AnyEvent, isRoundTripSafe, parseEventJson, serializeEvent } from '@x/events';
import { type AppendFence, InvalidEventIdError, isStorableEventId } from '@x/store';
import type { PostgresDatabase } from '../database.js';
import { escapeLoneSurrogates } from '../internal/postgres-text.js';

/** The tables a log writes to, and its key in them. */
export interface EventTables {
  /** The events table (`<prefix>events`). */
  readonly events: string;
  /** The leases table (`<prefix>leases`) that fences appends. */
  readonly leases: string;
  readonly logId: string;
}

/** One event as a row: its id, its exact JSON text, and the event as read back from that text. */
export interface EventRow {
  readonly id: string;
  readonly json: string;
  readonly event: AnyEvent;
}

/** Serialises `event` as the reference writes it and checks that it reads back with a storable id. */
export function toEventRow(event: AnyEvent): EventRow {
  // A raw lone surrogate (text parsed from a string that held one) would reach the table as U+FFFD.
  const json = escapeLoneSurrogates(serializeEvent(event));
  // An event this process validated from a lossless value (createEvent, parseEvent*) parses back equal:
  // parsing its text again would only repeat that work (see isRoundTripSafe in @x/events).
  const parsed = isRoundTripSafe(event) ? event : parseEventJson(json);
  if (!isStorableEventId(parsed.id)) throw new InvalidEventIdError(parsed.id);
  return { id: parsed.id, json, event: parsed };
}

/**
 * The event of `rows` a unique violation on the event id names (its detail reads
 * `Key (log_id, event_id)=(<log>, <id>) already exists.`); the first row when the detail does not say.
 */
export function conflictingRow(error: unknown, rows: readonly EventRow[]): EventRow {
  const detail = (error as { detail?: unknown } | null)?.detail;
  const named = typeof detail === 'string' ? rows.find((row) => detail.includes(`, ${row.id})`)) : undefined;
  return named ?? rows[0]!;
}

// Every insert, of one row or many, is one statement: all its rows commit or none do, in the order of the batch.
// That order matters beyond the indices: the chain trigger (BEFORE INSERT, FOR EACH ROW, volatile) of a row reads
// the hash of the row before it, which an earlier row of the same statement wrote. A row-level trigger sees the
// rows its statement processed before it, and an INSERT processes a VALUES list, or a SELECT sorted by position,
// in that order: a batch is chained exactly as one append at a time would chain it.
const COLUMNS = '(log_id, idx, event_id, body)';

/**
 * Batches up to this size are bound row by row (two parameters each, the cheapest form to send and parse); larger
 * ones as two arrays, so that no batch meets the protocol's limit of 65 535 parameters per statement.
 */
export const MAX_BOUND_ROWS = 1000;

/** Plain inserts of up to this many rows are prepared statements (one per size, per connection). */
const MAX_PREPARED_ROWS = 4;

/** The share lock on the lease row at `generation`: no rows (so nothing inserted) once another owner took it. */
function fenceClause(leases: string, key: number): string {
  return `fence AS (SELECT 1 FROM ${leases} WHERE lease_key = $${key} AND generation = $${key + 1} FOR SHARE)`;
}

/** The batch as a FROM item `batch(position, event_id, body)`, positions from 0, parameters from `$first` on. */
function batchSource(rows: readonly EventRow[], first: number): { sql: string; parameters: unknown[] } {
  if (rows.length > MAX_BOUND_ROWS) {
    return {
      sql: `(SELECT position::integer - 1 AS position, event_id, body
             FROM unnest($${first}::text[], $${first + 1}::text[]) WITH ORDINALITY AS t(event_id, body, position)) AS batch`,
      parameters: [rows.map((row) => row.id), rows.map((row) => row.json)],
    };
  }
  const list = rows.map((_, k) => `(${k}, $${first + 2 * k}::text, $${first + 2 * k + 1}::text)`);
  return {
    sql: `(VALUES ${list.join(', ')}) AS batch(position, event_id, body)`,
    parameters: rows.flatMap((row) => [row.id, row.json]),
  };
}

/**
 * Inserts `rows` at `start`, `start + 1`, … in one statement (the primary key makes it a compare-and-swap:
 * a rival at any of those indices fails all of it with 23505). With `fence`, the check and the insert are the
 * same statement. Resolves with false when the fence refused it (nothing written).
 */
export async function insertEventsAt(
  database: PostgresDatabase,
  tables: EventTables,
  options: { start: number; rows: readonly EventRow[]; fence: AppendFence | undefined },
): Promise<boolean> {
  const { start, rows, fence } = options;
  if (fence === undefined && rows.length <= MAX_BOUND_ROWS) {
    // The common case, as plain as an INSERT gets: measurably cheaper for the server than a SELECT over the rows.
    const list = rows.map((_, k) => `($1, $2::integer + ${k}, $${3 + 2 * k}, $${4 + 2 * k})`);
    await database.query(
      `INSERT INTO ${tables.events} ${COLUMNS} VALUES ${list.join(', ')}`,
      [tables.logId, start, ...rows.flatMap((row) => [row.id, row.json])],
      // An agent step's appends are one or two rows: those texts are parsed and planned once per connection.
      { prepared: rows.length <= MAX_PREPARED_ROWS },
    );
    return true;
  }
  const parameters: unknown[] = [tables.logId, start];
  if (fence !== undefined) parameters.push(fence.key, fence.generation);
  const source = batchSource(rows, parameters.length + 1);
  const inserted = await database.query(
    `${fence === undefined ? '' : `WITH ${fenceClause(tables.leases, 3)}`}
     INSERT INTO ${tables.events} ${COLUMNS}
     SELECT $1, $2::integer + batch.position, batch.event_id, batch.body
     FROM ${fence === undefined ? '' : 'fence, '}${source.sql} ORDER BY batch.position
     ${fence === undefined ? '' : 'RETURNING idx'}`,
    [...parameters, ...source.parameters],
  );
  return fence === undefined || inserted.length === rows.length;
}

/**
 * Inserts `rows` after the log's last row, in a transaction holding the log's advisory lock, so contending
 * writers queue instead of retrying; resolves with the first row's index, or undefined when the fence refused
 * the batch (nothing written).
 */
export function insertEventsLocked(
  database: PostgresDatabase,
  tables: EventTables,
  options: { rows: readonly EventRow[]; fence: AppendFence | undefined },
): Promise<number | undefined> {
  const { rows, fence } = options;
  const parameters: unknown[] = [tables.logId];
  if (fence !== undefined) parameters.push(fence.key, fence.generation);
  const source = batchSource(rows, parameters.length + 1);
  return database.transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${tables.events}:${tables.logId}`]);
    const result = await client.query<{ idx: number }>(
      `WITH ${fence === undefined ? '' : `${fenceClause(tables.leases, 2)}, `}
         next AS (SELECT coalesce(max(idx) + 1, 0) AS idx FROM ${tables.events} WHERE log_id = $1)
       INSERT INTO ${tables.events} ${COLUMNS}
       SELECT $1, next.idx + batch.position, batch.event_id, batch.body
       FROM next, ${fence === undefined ? '' : 'fence, '}${source.sql} ORDER BY batch.position
       RETURNING idx`,
      [...parameters, ...source.parameters],
    );
    return result.rows.reduce<number | undefined>((first, row) => Math.min(first ?? row.idx, row.idx), undefined);
  });
}
