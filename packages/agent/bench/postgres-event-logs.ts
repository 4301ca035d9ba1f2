// The PostgreSQL side of the full-loop benchmark: a throwaway server on 127.0.0.1, each conversation's events in
// a `PostgresEventLog` keyed by its id.
import type { EventLogLike, FileStore, Leases } from '@x/store';
import { connectPostgres, createPostgresFileStore, PostgresEventLog, PostgresLeases } from '@x/store-postgres';
import { countingDatabase, type PostgresServer, startPostgresServer } from '@x/store-postgres/testing';

/**
 * Starts a throwaway server. `durable`: PostgreSQL's own defaults (fsync, synchronous_commit and
 * full_page_writes on), as a deployment runs it; otherwise all three off, where a PostgreSQL crash alone can lose
 * acknowledged events (a class below the file store's 'none', which survives a process crash).
 */
export function startBenchServer(durable: boolean): Promise<PostgresServer> {
  return startPostgresServer({ durable });
}

export interface BenchPostgres {
  /** The Conversation option `openEventLog`: the conversation's events as rows of this database. */
  openEventLog(location: { conversationId: string }): Promise<EventLogLike>;
  /** base_state.json and the other conversation files, in the `files` table (as the store-postgres README deploys). */
  store: FileStore;
  /** One owner per run, fenced (as the README deploys). */
  leases: Leases;
  /** Commits made through this connection so far (writing transactions, counted by the client). */
  commits(): number;
  close(): Promise<void>;
}

/** Connects to a bench server the way the store-postgres README deploys a conversation: log, files and leases. */
export async function connectBenchPostgres(url: string): Promise<BenchPostgres> {
  const connected = await connectPostgres({ url, maxConnections: 4 });
  const { database, count } = countingDatabase(connected);
  return {
    commits: () => count.commits,
    openEventLog: ({ conversationId }) => PostgresEventLog.open(database, { logId: conversationId }),
    store: createPostgresFileStore(database),
    leases: new PostgresLeases(database),
    close: () => connected.close(),
  };
}
