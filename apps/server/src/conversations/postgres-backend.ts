import type { ConversationOptions } from '@x/agent';
import type { FileStore } from '@x/store';

/** What a server shares with other replicas through PostgreSQL. */
export interface SharedConversationBackend {
  store: FileStore;
  /** Reported as `persistence_dir`: the database URL without its password. */
  root: string;
  /** Given to every Conversation: events in the events table, one fenced owner per run. */
  conversationOptions: Pick<ConversationOptions, 'openEventLog' | 'leases'>;
  close(): Promise<void>;
}

/**
 * Connects to the database (migrating its schema) and builds what every conversation of this replica
 * uses: snapshots and meta.json in the files table, events in the events table, leases. The driver is
 * imported only here, so servers without `databaseUrl` never load it.
 */
export async function openPostgresBackend(url: string): Promise<SharedConversationBackend> {
  const { connectPostgres, createPostgresFileStore, PostgresEventLog, PostgresLeases } = await import(
    '@x/store-postgres'
  );
  const database = await connectPostgres({ url });
  const leases = new PostgresLeases(database);
  return {
    store: createPostgresFileStore(database),
    root: database.location,
    conversationOptions: {
      openEventLog: ({ conversationId }) => PostgresEventLog.open(database, { logId: conversationId }),
      leases,
    },
    close: () => database.close(),
  };
}
