import { describeDamagedEventLogContract, describeEventLogContract } from '@x/store/testing';
import { PostgresEventLog } from '../src/event-log/postgres-event-log.js';
import { freshTables } from './helpers/shared-database.js';

describeEventLogContract('PostgreSQL', async () => {
  const database = await freshTables();
  return {
    open: () => PostgresEventLog.open(database, { logId: 'conversation-1', pollIntervalMs: 50 }),
    cleanup: () => database.close(),
  };
});

describeDamagedEventLogContract('PostgreSQL rows', async () => {
  const database = await freshTables();
  const table = `${database.tablePrefix}events`;
  return {
    open: () => PostgresEventLog.open(database, { logId: 'damaged' }),
    async removeEntry(index) {
      await database.query(`DELETE FROM ${table} WHERE log_id = 'damaged' AND idx = $1`, [index]);
    },
    async replaceEntryText(index, text) {
      await database.query(`UPDATE ${table} SET body = $2 WHERE log_id = 'damaged' AND idx = $1`, [index, text]);
    },
    cleanup: () => database.close(),
  };
});
