import { validateStorePath } from '@x/store';
import type { QueryResultRow } from 'pg';
import type { PostgresDatabase } from '../database.js';
import { InvalidPostgresOptionsError } from '../errors/invalid-postgres-options-error.js';
import { sqlState } from '../internal/pg-errors.js';
import { checkedKey, storableDisplayText } from '../internal/postgres-text.js';
import { retryOnConnectionFailure } from '../internal/retry.js';

/** One conversation as the index knows it. */
export interface ConversationRecord {
  conversationId: string;
  status: string;
  title: string | null;
  /** ISO 8601, UTC, microseconds (the database's precision). */
  createdAt: string;
  updatedAt: string;
}

/** Where a conversation was forked from: its source conversation, and the event (null: the whole log). */
export interface ForkLink {
  conversationId: string;
  eventId: string | null;
}

/** A conversation forked from another, as `forksOf` lists it. */
export interface ForkedConversation {
  conversationId: string;
  /** The source's event it was forked from; null for a fork of the whole log. */
  fromEventId: string | null;
}

/** Filters and paging for `PostgresConversationIndex.search`. */
export interface ConversationSearch {
  /** One status or any of several. */
  status?: string | readonly string[];
  /** Case-insensitive substring of the title. */
  titleContains?: string;
  /**
   * Case-insensitive substring of the title or of the id, the id matched both as stored and in the hyphenated
   * UUID form when it is 32 hex digits (what the server's `q` filter searches).
   */
  textContains?: string;
  /** Only conversations updated at or after / before these ISO times. */
  updatedAfter?: string;
  updatedBefore?: string;
  /** Page size, 1–1000. Default 50. */
  limit?: number;
  /** `nextPageToken` of the previous page. */
  pageToken?: string;
  /** The order of the page: by update (default) or creation time, newest (default) or oldest first; ties by id. */
  order?: ConversationOrder;
  /** Start the page at this conversation (inclusive), in `order`: paging by id, as the reference's `page_id`. */
  startAt?: string;
  /**
   * Start the page just after this place in `order`: the time the order sorts by (ISO 8601, as a record has it) and
   * the id. Unlike `startAt`, it needs no row of that id: a page goes on after a conversation deleted meanwhile.
   */
  after?: { at: string; conversationId: string };
}

/** The times a statement was given, each with the option it came from. */
type Times = [option: string, time: string][];

/** `updated_desc` (default), `updated_asc`, `created_desc`, `created_asc`. */
export type ConversationOrder = 'updated_desc' | 'updated_asc' | 'created_desc' | 'created_asc';

/** A page of `search`, in its `order`; `nextPageToken` is absent on the last page. */
export interface ConversationPage {
  items: ConversationRecord[];
  nextPageToken?: string;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
const COLUMNS = `conversation_id, status, title,
  to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
  to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_at`;

interface Row {
  conversation_id: string;
  status: string;
  title: string | null;
  created_at: string;
  updated_at: string;
}

function toRecord(row: Row): ConversationRecord {
  return {
    conversationId: row.conversation_id,
    status: row.status,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (match) => `\\${match}`);
}

function encodeToken(row: Row, column: 'updated_at' | 'created_at'): string {
  return Buffer.from(JSON.stringify([row[column], row.conversation_id])).toString('base64url');
}

function decodeToken(token: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string')) {
      return value as [string, string];
    }
  } catch {
    // Reported below.
  }
  throw new InvalidPostgresOptionsError('pageToken', `not one this index issued: '${token}'`);
}

/**
 * The conversations of a deployment in one table (`<prefix>conversations`): status, title, times
 * and the latest snapshot, so a server lists, filters and pages them with one indexed query instead
 * of reading every conversation. Keyset paging (newest update first) stays exact while rows change.
 */
export class PostgresConversationIndex {
  readonly database: PostgresDatabase;
  readonly #table: string;

  constructor(database: PostgresDatabase) {
    this.database = database;
    this.#table = `${database.tablePrefix}conversations`;
  }

  /**
   * Creates or updates a conversation's row; fields left out (or undefined) keep their value, and `title: null`
   * clears the title. `updatedAt` (ISO) sets the update time, else it is the database's clock now; `createdAt` is
   * used only when the row is created.
   */
  async upsert(
    record: {
      conversationId: string;
      status?: string;
      title?: string | null;
      snapshot?: string;
      createdAt?: string;
      updatedAt?: string;
      /** Where it was forked from; kept once set (a fork's source never changes). */
      forkedFrom?: ForkLink;
    },
    options: {
      /**
       * A file of the `createPostgresFileStore` on the same database, written in the same statement as the row (one
       * commit instead of two): the server's `meta.json` and the row that indexes it. Both are upserts, so the
       * statement is retried after a lost connection (for `retryForMs`, default 30 000), as the file store's are.
       */
      file?: { path: string; data: string | Uint8Array };
      retryForMs?: number;
    } = {},
  ): Promise<void> {
    const { file } = options;
    const fileValues = file === undefined ? [] : [validateStorePath(file.path), Buffer.from(file.data)];
    const { forkedFrom } = record;
    const values = [
      checkedKey('conversationId', record.conversationId),
      record.status === undefined ? null : checkedKey('status', record.status),
      record.title == null ? null : storableDisplayText(record.title),
      record.snapshot === undefined ? null : checkedKey('snapshot', record.snapshot),
      // Undefined is left out, as for the other fields; null clears the title.
      record.title !== undefined,
      record.createdAt ?? null,
      record.updatedAt ?? null,
      forkedFrom === undefined ? null : checkedKey('forkedFrom.conversationId', forkedFrom.conversationId),
      forkedFrom?.eventId == null ? null : checkedKey('forkedFrom.eventId', forkedFrom.eventId),
      ...fileValues,
    ];
    const times: Times = [];
    if (record.createdAt !== undefined) times.push(['createdAt', record.createdAt]);
    if (record.updatedAt !== undefined) times.push(['updatedAt', record.updatedAt]);
    const run = (): Promise<unknown> =>
      this.#query(
        `${
          file === undefined
            ? ''
            : `WITH file AS (INSERT INTO ${this.database.tablePrefix}files (path, data) VALUES ($10, $11)
         ON CONFLICT (path) DO UPDATE SET data = EXCLUDED.data, updated_at = now()) `
        }
       INSERT INTO ${this.#table} (conversation_id, status, title, snapshot, created_at, updated_at,
         forked_from_conversation_id, forked_from_event_id)
       VALUES ($1, coalesce($2, 'idle'), $3, $4, coalesce($6::timestamptz, now()), coalesce($7::timestamptz, now()),
         $8, $9)
       ON CONFLICT (conversation_id) DO UPDATE SET
         status = coalesce($2, ${this.#table}.status),
         title = CASE WHEN $5 THEN $3 ELSE ${this.#table}.title END,
         snapshot = coalesce($4, ${this.#table}.snapshot),
         updated_at = coalesce($7::timestamptz, clock_timestamp()),
         forked_from_conversation_id = coalesce($8, ${this.#table}.forked_from_conversation_id),
         forked_from_event_id = CASE WHEN $8::text IS NULL THEN ${this.#table}.forked_from_event_id ELSE $9 END`,
        values,
        times,
      );
    if (file === undefined) await run();
    else await retryOnConnectionFailure(run, options.retryForMs ?? 30_000);
  }

  async get(conversationId: string): Promise<ConversationRecord | undefined> {
    const rows = await this.database.query<Row>(`SELECT ${COLUMNS} FROM ${this.#table} WHERE conversation_id = $1`, [
      checkedKey('conversationId', conversationId),
    ]);
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  }

  /** The last snapshot stored with `upsert`. */
  async snapshot(conversationId: string): Promise<string | undefined> {
    const rows = await this.database.query<{ snapshot: string | null }>(
      `SELECT snapshot FROM ${this.#table} WHERE conversation_id = $1`,
      [checkedKey('conversationId', conversationId)],
    );
    return rows[0]?.snapshot ?? undefined;
  }

  /** The conversations forked from `conversationId` (as `upsert` recorded it), oldest first. */
  async forksOf(conversationId: string): Promise<ForkedConversation[]> {
    const rows = await this.database.query<{ conversation_id: string; forked_from_event_id: string | null }>(
      `SELECT conversation_id, forked_from_event_id FROM ${this.#table}
       WHERE forked_from_conversation_id = $1 ORDER BY created_at, conversation_id`,
      [checkedKey('conversationId', conversationId)],
    );
    return rows.map((row) => ({ conversationId: row.conversation_id, fromEventId: row.forked_from_event_id }));
  }

  async delete(conversationId: string): Promise<boolean> {
    return (
      (
        await this.database.query(`DELETE FROM ${this.#table} WHERE conversation_id = $1 RETURNING 1`, [
          checkedKey('conversationId', conversationId),
        ])
      ).length === 1
    );
  }

  /** One page of the conversations matching `search`, newest update first. */
  async search(search: ConversationSearch = {}): Promise<ConversationPage> {
    const limit = search.limit ?? 50;
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 1000))
      throw new InvalidPostgresOptionsError('limit', `expected an integer from 1 to 1000, got ${limit}`);
    const order = search.order ?? 'updated_desc';
    if (!['updated_desc', 'updated_asc', 'created_desc', 'created_asc'].includes(order))
      throw new InvalidPostgresOptionsError(
        'order',
        `expected updated_desc, updated_asc, created_desc or created_asc, got '${order}'`,
      );
    const column = order.startsWith('updated') ? 'updated_at' : 'created_at';
    const descending = order.endsWith('_desc');
    const after = descending ? '<' : '>';
    const { where, values, times } = this.#filters(search);
    if (search.pageToken !== undefined) {
      const [time, id] = decodeToken(search.pageToken);
      values.push(time, id);
      times.push(['pageToken', time]);
      where.push(`(${column}, conversation_id) ${after} ($${values.length - 1}::timestamptz, $${values.length})`);
    }
    if (search.after !== undefined) {
      values.push(search.after.at, search.after.conversationId);
      times.push(['after.at', search.after.at]);
      where.push(`(${column}, conversation_id) ${after} ($${values.length - 1}::timestamptz, $${values.length})`);
    }
    if (search.startAt !== undefined) {
      values.push(search.startAt);
      where.push(
        `(${column}, conversation_id) ${after}= (SELECT ${column}, conversation_id FROM ${this.#table} WHERE conversation_id = $${values.length})`,
      );
    }
    const direction = descending ? 'DESC' : 'ASC';
    const rows = await this.#query<Row>(
      `SELECT ${COLUMNS} FROM ${this.#table} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${column} ${direction}, conversation_id ${direction} LIMIT ${limit + 1}`,
      values,
      times,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(toRecord),
      ...(rows.length > limit && last !== undefined ? { nextPageToken: encodeToken(last, column) } : {}),
    };
  }

  /** How many conversations match the filters of `search` (paging ignored). */
  async count(search: Omit<ConversationSearch, 'limit' | 'pageToken'> = {}): Promise<number> {
    const { where, values, times } = this.#filters(search);
    const rows = await this.#query<{ count: string }>(
      `SELECT count(*) AS count FROM ${this.#table} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`,
      values,
      times,
    );
    return Number(rows[0]?.count ?? 0);
  }

  #filters(search: ConversationSearch): { where: string[]; values: unknown[]; times: Times } {
    const where: string[] = [];
    const values: unknown[] = [];
    const times: Times = [];
    if (search.status !== undefined) {
      values.push(typeof search.status === 'string' ? [search.status] : [...search.status]);
      where.push(`status = ANY($${values.length}::text[])`);
    }
    if (search.titleContains !== undefined && search.titleContains !== '') {
      values.push(`%${escapeLike(storableDisplayText(search.titleContains))}%`);
      where.push(`title ILIKE $${values.length}`);
    }
    if (search.textContains !== undefined && search.textContains !== '') {
      values.push(`%${escapeLike(storableDisplayText(search.textContains))}%`);
      const hyphenated = `CASE WHEN conversation_id ~ '^[0-9a-f]{32}$' THEN concat_ws('-', substr(conversation_id, 1, 8), substr(conversation_id, 9, 4), substr(conversation_id, 13, 4), substr(conversation_id, 17, 4), substr(conversation_id, 21, 12)) ELSE conversation_id END`;
      where.push(
        `(title ILIKE $${values.length} OR conversation_id ILIKE $${values.length} OR ${hyphenated} ILIKE $${values.length})`,
      );
    }
    if (search.updatedAfter !== undefined) {
      values.push(search.updatedAfter);
      times.push(['updatedAfter', search.updatedAfter]);
      where.push(`updated_at >= $${values.length}::timestamptz`);
    }
    if (search.updatedBefore !== undefined) {
      values.push(search.updatedBefore);
      times.push(['updatedBefore', search.updatedBefore]);
      where.push(`updated_at < $${values.length}::timestamptz`);
    }
    return { where, values, times };
  }

  /**
   * Runs `text`; when PostgreSQL cannot read a time in it (SQLSTATE 22007, 22008), the first of `times` it cannot
   * read is named by an `InvalidPostgresOptionsError` (a forged page token, a filter from a query string), found by
   * casting each on its own: no extra statement unless one failed.
   */
  async #query<R extends QueryResultRow>(text: string, values: unknown[], times: Times): Promise<R[]> {
    try {
      return await this.database.query<R>(text, values);
    } catch (error) {
      const state = sqlState(error);
      if (state !== '22007' && state !== '22008') throw error;
      for (const [option, time] of times) {
        const problem = await this.database.query('SELECT $1::timestamptz', [time]).then(
          () => undefined,
          (cause: unknown) => cause,
        );
        if (problem !== undefined) {
          const reason = problem instanceof Error ? problem.message : String(problem);
          throw new InvalidPostgresOptionsError(option, `${JSON.stringify(time)} is not a time (${reason})`);
        }
      }
      throw error;
    }
  }
}
