// The PostgreSQL side of the full-loop benchmark: a throwaway server on 127.0.0.1, each conversation's events in
// a `PostgresEventLog` keyed by its id.
import type { EventLogLike } from '@x/store';
import { connectPostgres, PostgresEventLog } from '@x/store-postgres';
import { startPostgresServer } from '@x/store-postgres/testing';

export interface BenchPostgres {
  /** The Conversation option `openEventLog`: the conversation's events as rows of this database. */
  openEventLog(location: { conversationId: string }): Promise<EventLogLike>;
  /** Closes the connections and stops the server, even if closing failed. */
  stop(): Promise<void>;
}

/**
 * Starts the server (fsync, synchronous_commit and full_page_writes off: nothing waits for the disk, the
 * durability class of the filesystem's 'none') and connects to it. The tables go into the server's `postgres`
 * database, which `stop` deletes with the rest of the server's data directory.
 */
export async function startBenchPostgres(): Promise<BenchPostgres> {
  const server = await startPostgresServer();
  try {
    const database = await connectPostgres({ url: server.url, maxConnections: 4 });
    return {
      openEventLog: ({ conversationId }) => PostgresEventLog.open(database, { logId: conversationId }),
      async stop() {
        try {
          await database.close();
        } finally {
          await server.stop();
        }
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
