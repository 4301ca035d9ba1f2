import type { FileStore } from '@x/store';
import { EventLog } from '@x/store';
import { describeEventLogContract, describeFileStoreContract } from '@x/store/testing';
import type { PostgresDatabase } from '../src/database.js';
import { createPostgresFileStore } from '../src/file-store/postgres-file-store.js';
import { freshTables } from './helpers/shared-database.js';

const connections = new Map<FileStore, PostgresDatabase>();

async function freshStore(): Promise<FileStore> {
  const database = await freshTables();
  const store = createPostgresFileStore(database);
  connections.set(store, database);
  return store;
}

async function closeStore(store: FileStore): Promise<void> {
  await connections.get(store)?.close();
  connections.delete(store);
}

describeFileStoreContract('PostgreSQL files table', freshStore, { reopen: (store) => store, cleanup: closeStore });

// The file-based EventLog runs on this store too (its slot claims use writeIfAbsent).
describeEventLogContract('files in a PostgreSQL files table', async () => {
  const store = await freshStore();
  return { open: () => EventLog.open(store), cleanup: () => closeStore(store) };
});
