import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { InvalidPostgresOptionsError } from './errors/invalid-postgres-options-error.js';
import { PostgresStoreError } from './errors.js';
import { EventNotifier } from './event-log/event-notifier.js';
import { loadPg } from './internal/load-pg.js';
import { redactDatabaseUrl } from './internal/redact-url.js';
import { migrate } from './migrations/migrate.js';

/** Options for `connectPostgres`. */
export interface ConnectPostgresOptions {
  /** `postgres://user:password@host:port/database`. Messages show it with the password replaced. */
  url: string;
  /** Pooled connections. Default 10. */
  maxConnections?: number;
  /** Run the schema migrations on connect (the default), or leave them to `database.migrate()`. */
  migrate?: boolean;
  /** Prefix of the tables this package creates, so several deployments can share a database. Default `x_`. */
  tablePrefix?: string;
  /** How long to wait for a connection before failing, in ms. Default 10 000. */
  connectTimeoutMs?: number;
}

/** Options of `PostgresDatabase.query`. */
export interface QueryOptions {
  /**
   * Send it as a named prepared statement: each connection parses and plans `text` once, then only binds
   * values (for the few statements run on every append; a name per distinct text, so keep those few).
   */
  readonly prepared?: boolean;
}

/** A pooled connection to the database, shared by every log, lease and index made from it. */
export interface PostgresDatabase {
  /** The URL with the password replaced by `***`. */
  readonly location: string;
  readonly tablePrefix: string;
  /** Runs one statement on a pooled connection. */
  query<Row extends QueryResultRow = QueryResultRow>(
    text: string,
    values?: unknown[],
    options?: QueryOptions,
  ): Promise<Row[]>;
  /** Runs `work` in a transaction on one connection (BEGIN … COMMIT, ROLLBACK on error). */
  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T>;
  /** A dedicated connection (for LISTEN); release it with `client.release()`. */
  connect(): Promise<PoolClient>;
  /** Applies the schema migrations this version knows that the database lacks; resolves with the version. */
  migrate(): Promise<number>;
  /** Wakes subscriptions when events are appended (one LISTEN connection, opened on first use). */
  readonly notifier: EventNotifier;
  /** Closes every pooled connection. */
  close(): Promise<void>;
}

/**
 * Connects to PostgreSQL: one pool, a first connection to fail early with a clear error (the URL
 * without its password), and the schema migrations unless `migrate: false`.
 */
export async function connectPostgres(options: ConnectPostgresOptions): Promise<PostgresDatabase> {
  const location = redactDatabaseUrl(options.url);
  const tablePrefix = options.tablePrefix ?? 'x_';
  if (!/^[a-z_][a-z0-9_]{0,30}$/.test(tablePrefix)) {
    throw new InvalidPostgresOptionsError(
      'tablePrefix',
      `expected lower-case letters, digits and '_' (at most 31, not starting with a digit), got '${tablePrefix}'`,
    );
  }
  const pg = await loadPg();
  const pool: Pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
  });
  // An idle connection that the server drops must not crash the process: the next query reconnects.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new PostgresStoreError(
      'postgres_unavailable',
      `Cannot connect to PostgreSQL at ${location}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const notifier = new EventNotifier({ connect: () => pool.connect(), channel: `${tablePrefix}events` });
  const database: PostgresDatabase = {
    notifier,
    location,
    tablePrefix,
    async query<Row extends QueryResultRow>(text: string, values?: unknown[], options?: QueryOptions) {
      const result = options?.prepared
        ? await pool.query<Row>({ name: statementName(text), text, values })
        : await pool.query<Row>(text, values);
      return result.rows;
    },
    async transaction(work) {
      const client = await pool.connect();
      // The connection dropping between two statements (a restart) is reported by the next query's
      // rejection; without a listener the client's 'error' event would crash the process.
      let broken: Error | undefined;
      const ignore = (error: Error): void => {
        broken = error;
      };
      client.on('error', ignore);
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', ignore);
        // A broken connection is destroyed rather than returned to the pool.
        client.release(broken);
      }
    },
    connect: () => pool.connect(),
    migrate: () => migrate(database),
    async close() {
      await notifier.close();
      await pool.end();
    },
  };
  if (options.migrate !== false) await database.migrate();
  return database;
}

/** Names of the prepared statements made so far, by text: hashed once, not on every append. */
const statementNames = new Map<string, string>();

/** A prepared statement's name, the same for the same text on every connection (a short hash of it). */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `x_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}
