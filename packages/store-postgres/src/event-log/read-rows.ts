import { type AnyEvent, parseEventJson } from '@x/events';
import { CorruptEventError } from '@x/store';
import type { PostgresDatabase } from '../database.js';
import { retryOnConnectionFailure } from '../internal/retry.js';
import type { LogIndex } from './log-index.js';

/** Rows read at once (with bodies; twenty times as many ids alone). */
export const PAGE = 500;

/** The log whose rows are read, and what it holds of them in memory. */
export interface RowSource {
  database: PostgresDatabase;
  /** The events table's name. */
  table: string;
  logId: string;
  /** How long a read keeps retrying while the database is unreachable, in ms. */
  retryForMs: number;
  index: LogIndex;
}

/**
 * Reads the rows from `length` on, in pages; with `withBodies` their events go to the cache too. Appends only ever
 * insert at the first free index, so the rows are contiguous: a row past a missing index (one deleted by hand) ends
 * the log at the gap, and the rows past it are counted in `index.rowsPastGap` (appends are refused while there are).
 */
export async function catchUpRows(source: RowSource, withBodies: boolean): Promise<number> {
  const { index } = source;
  const before = index.length;
  const limit = withBodies ? PAGE : PAGE * 20;
  for (;;) {
    const from = index.length;
    const rows = await retryOnConnectionFailure(
      () =>
        source.database.query<{ idx: number; event_id: string; body?: string }>(
          `SELECT idx, event_id${withBodies ? ', body' : ''} FROM ${source.table}
             WHERE log_id = $1 AND idx >= $2 ORDER BY idx LIMIT ${limit}`,
          [source.logId, from],
        ),
      source.retryForMs,
    );
    for (const row of rows) {
      if (row.idx !== index.length) {
        index.rowsPastGap = await countRowsFrom(source, index.length);
        return index.length - before;
      }
      index.push(row.event_id, row.body === undefined ? undefined : parseRow(source, row.idx, row.event_id, row.body));
    }
    if (rows.length < limit) break;
  }
  index.rowsPastGap = 0;
  return index.length - before;
}

async function countRowsFrom(source: RowSource, start: number): Promise<number> {
  const [row] = await retryOnConnectionFailure(
    () =>
      source.database.query<{ count: number }>(
        `SELECT count(*)::integer AS count FROM ${source.table} WHERE log_id = $1 AND idx >= $2`,
        [source.logId, start],
      ),
    source.retryForMs,
  );
  return row?.count ?? 0;
}

/** The events at indices `start` to `end` (excluded), from the cache or else the table. */
export async function readEventRange(source: RowSource, start: number, end: number): Promise<AnyEvent[]> {
  const events: (AnyEvent | undefined)[] = [];
  let missing = false;
  for (let index = start; index < end; index++) {
    const cached = source.index.cached(index);
    events.push(cached);
    if (cached === undefined) missing = true;
  }
  if (!missing) return events as AnyEvent[];
  const rows = await retryOnConnectionFailure(
    () =>
      source.database.query<{ idx: number; event_id: string; body: string }>(
        `SELECT idx, event_id, body FROM ${source.table} WHERE log_id = $1 AND idx >= $2 AND idx < $3 ORDER BY idx`,
        [source.logId, start, end],
      ),
    source.retryForMs,
  );
  for (const row of rows) {
    const event = parseRow(source, row.idx, row.event_id, row.body);
    source.index.remember(row.idx, event);
    events[row.idx - start] = event;
  }
  return events.map((event, offset) => {
    if (event === undefined) {
      throw new CorruptEventError({ location: describeRow(source, start + offset), problem: 'the row is missing' });
    }
    return event;
  });
}

function parseRow(source: RowSource, index: number, id: string, body: string): AnyEvent {
  let event: AnyEvent;
  try {
    event = parseEventJson(body);
  } catch (error) {
    throw new CorruptEventError({
      location: describeRow(source, index),
      problem: error instanceof Error ? error.message : String(error),
    });
  }
  if (event.id !== id) {
    throw new CorruptEventError({
      location: describeRow(source, index),
      problem: `its row says id '${id}' but the event's id is '${event.id}'`,
    });
  }
  return event;
}

function describeRow(source: RowSource, index: number): string {
  return `${source.database.location} ${source.table} (log_id '${source.logId}', idx ${index})`;
}

/** The log's rows, for messages: the database (password hidden), the table and the log id. */
export function describeLog(source: RowSource): string {
  return `${source.database.location} ${source.table} (log_id '${source.logId}')`;
}
