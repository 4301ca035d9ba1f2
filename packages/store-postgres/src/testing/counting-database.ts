import type { QueryResultRow } from 'pg';
import type { PostgresDatabase, QueryOptions } from '../database.js';

/** What a `countingDatabase` saw: the commits its users caused, and every statement. */
export interface CommitCount {
  /**
   * Transactions that wrote (each a durable commit: with `synchronous_commit` on, one WAL flush the caller waits
   * for): every `transaction`, and every statement run alone that inserts, updates, deletes or locks rows.
   * Read-only statements run alone are implicit transactions too, but commit nothing to wait for.
   */
  readonly commits: number;
  /** Statements run alone (reads included), whitespace collapsed, in order. */
  readonly statements: readonly string[];
  /** Forgets what was counted so far. */
  reset(): void;
}

/** A statement that writes (or locks) rows; `SELECT … FOR SHARE` inside a `WITH … INSERT` counts as its insert. */
function writes(statement: string): boolean {
  if (/^(SELECT|LISTEN|UNLISTEN|SHOW|VALUES)\b/i.test(statement)) return /\bFOR (UPDATE|SHARE)\b/i.test(statement);
  return true;
}

/**
 * `database`, counting the commits made through it: wrap the database a conversation, log, file store or lease
 * uses, run a step, read `count.commits`. Counting is deterministic (no server statistics, no timing), so a test
 * can assert how many commits an agent step costs.
 */
export function countingDatabase(database: PostgresDatabase): { database: PostgresDatabase; count: CommitCount } {
  const statements: string[] = [];
  let commits = 0;
  const count: CommitCount = {
    get commits() {
      return commits;
    },
    statements,
    reset() {
      commits = 0;
      statements.length = 0;
    },
  };
  return {
    count,
    database: {
      ...database,
      query<Row extends QueryResultRow>(text: string, values?: unknown[], options?: QueryOptions) {
        const statement = text.replace(/\s+/g, ' ').trim();
        statements.push(statement);
        if (writes(statement)) commits++;
        return database.query<Row>(text, values, options);
      },
      transaction(work) {
        commits++;
        return database.transaction(work);
      },
    },
  };
}
