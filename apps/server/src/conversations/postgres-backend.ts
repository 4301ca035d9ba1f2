import type { ConversationOptions } from '@x/agent';
import type { FileStore, Leases } from '@x/store';

/** What a server shares with other replicas through PostgreSQL. */
export interface SharedConversationBackend {
  store: FileStore;
  /** Reported as `persistence_dir`: the database URL without its password. */
  root: string;
  /** Given to every Conversation: events in the events table, one fenced owner per run. */
  conversationOptions: Pick<ConversationOptions, 'openEventLog' | 'leases' | 'interruptedActions'>;
  /** The run leases every conversation takes (also given in `conversationOptions`). */
  leases: Leases;
  /** Keys of the run leases whose owner died (expired without being released): runs to recover. */
  expiredLeases(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Connects to the database (migrating its schema) and builds what every conversation of this replica
 * uses: snapshots and meta.json in the files table, events in the events table, leases. The driver is
 * imported only here, so servers without `databaseUrl` never load it.
 */
export async function openPostgresBackend(
  url: string,
  options: { leaseTtlMs?: number; interruptedActions?: ConversationOptions['interruptedActions'] } = {},
): Promise<SharedConversationBackend> {
  const { connectPostgres, createPostgresFileStore, PostgresEventLog, PostgresLeases } = await import(
    '@x/store-postgres'
  );
  const database = await connectPostgres({ url });
  const leases = new PostgresLeases(database, options.leaseTtlMs === undefined ? {} : { ttlMs: options.leaseTtlMs });
  return {
    store: createPostgresFileStore(database),
    root: database.location,
    conversationOptions: {
      openEventLog: ({ conversationId }) => PostgresEventLog.open(database, { logId: conversationId }),
      leases,
      interruptedActions: options.interruptedActions ?? 'report',
    },
    leases,
    expiredLeases: () => leases.expired(),
    close: () => database.close(),
  };
}
