import type { QueryResultRow } from 'pg';
import type { PostgresDatabase, QueryOptions } from '../../src/database.js';
import { sqlState, violatedConstraint } from '../../src/internal/pg-errors.js';

/** What a log did with its database: each statement it ran alone, its transactions, and what the server refused. */
export interface Recording {
  /** Statements run with `query`, whitespace collapsed. */
  readonly statements: string[];
  /** Transactions begun (each is several statements on one connection). */
  transactions: number;
  /** Errors of statements and transactions: SQLSTATE and the constraint they name. */
  readonly failures: { state: string | undefined; constraint: string | undefined }[];
  /** Forgets everything recorded so far. */
  clear(): void;
}

/** `database`, with every statement, transaction and refusal recorded: to count round trips and see failures. */
export function recordingDatabase(database: PostgresDatabase): { database: PostgresDatabase; recording: Recording } {
  const recording: Recording = {
    statements: [],
    transactions: 0,
    failures: [],
    clear() {
      this.statements.length = 0;
      this.transactions = 0;
      this.failures.length = 0;
    },
  };
  const noted = (error: unknown): never => {
    recording.failures.push({ state: sqlState(error), constraint: violatedConstraint(error) });
    throw error;
  };
  return {
    recording,
    database: {
      ...database,
      query<Row extends QueryResultRow>(text: string, values?: unknown[], options?: QueryOptions) {
        recording.statements.push(text.replace(/\s+/g, ' ').trim());
        return database.query<Row>(text, values, options).catch(noted);
      },
      transaction(work) {
        recording.transactions++;
        return database.transaction(work).catch(noted);
      },
    },
  };
}
