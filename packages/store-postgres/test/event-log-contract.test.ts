import { describeEventLogContract } from '@x/store/testing';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { freshTables } from './helpers/shared-database.js';

describeEventLogContract('PostgreSQL', async () => {
  const database = await freshTables();
  return {
    open: () => PostgresEventLog.open(database, { logId: 'conversation-1', pollIntervalMs: 50 }),
    cleanup: () => database.close(),
  };
});
