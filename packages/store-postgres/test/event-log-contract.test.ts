import { describeEventLogContract } from '@x/store/testing';
import { inject } from 'vitest';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { createTestDatabase } from '../src/testing/test-database.js';

describeEventLogContract('PostgreSQL', async () => {
  const testDatabase = await createTestDatabase(inject('postgresUrl'));
  const database = await testDatabase.connect();
  return {
    open: () => PostgresEventLog.open(database, { logId: 'conversation-1', pollIntervalMs: 50 }),
    cleanup: () => testDatabase.drop(),
  };
});
