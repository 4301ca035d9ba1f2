import type { FileStore } from '@x/store';
import { EventLog } from '@x/store';
import { describeEventLogContract, describeFileStoreContract } from '@x/store/testing';
import { inject } from 'vitest';
import { createPostgresFileStore } from '../src/file-store/postgres-file-store.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/test-database.js';

const databases = new Map<FileStore, TestDatabase>();

async function freshStore(): Promise<FileStore> {
  const testDatabase = await createTestDatabase(inject('postgresUrl'));
  const store = createPostgresFileStore(await testDatabase.connect());
  databases.set(store, testDatabase);
  return store;
}

async function dropStore(store: FileStore): Promise<void> {
  await databases.get(store)?.drop();
  databases.delete(store);
}

describeFileStoreContract('PostgreSQL files table', freshStore, { reopen: (store) => store, cleanup: dropStore });

// The file-based EventLog runs on this store too (its slot claims use writeIfAbsent).
describeEventLogContract('files in a PostgreSQL files table', async () => {
  const store = await freshStore();
  return { open: () => EventLog.open(store), cleanup: () => dropStore(store) };
});
