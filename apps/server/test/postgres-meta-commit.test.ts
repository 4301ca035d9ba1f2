import { connectPostgres, createPostgresFileStore, PostgresConversationIndex } from '@x/store-postgres';
import {
  countingDatabase,
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedConversationStore } from '../src/conversations/indexed-store.js';
import { postgresIndexSink } from '../src/conversations/postgres-backend.js';

let server: PostgresServer;
let testDatabase: TestDatabase;
beforeAll(async () => {
  server = await startPostgresServer();
  testDatabase = await createTestDatabase(server.url);
});
afterAll(async () => {
  await testDatabase?.drop();
  await server?.stop();
});

describe('meta.json on PostgreSQL', () => {
  it('is written with its index row in one commit per status change', async () => {
    const connected = await connectPostgres({ url: testDatabase.url });
    try {
      const { database, count } = countingDatabase(connected);
      const index = new PostgresConversationIndex(database);
      const store = indexedConversationStore(createPostgresFileStore(database), postgresIndexSink(index));
      const id = 'a'.repeat(32);
      const meta = (status: string) => JSON.stringify({ id, execution_status: status, title: 'Fix the build' });
      await store.write(`${id}/meta.json`, meta('running'));
      expect(count.commits).toBe(1);
      await store.write(`${id}/meta.json`, meta('finished'));
      expect(count.commits).toBe(2);
      expect(await store.read(`${id}/meta.json`)).toBe(meta('finished'));
      expect(await index.get(id)).toMatchObject({ status: 'finished', title: 'Fix the build' });
      // Other files are plain writes.
      await store.write(`${id}/base_state.json`, '{}');
      expect(count.commits).toBe(3);
    } finally {
      await connected.close();
    }
  });
});
