export { type CommitCount, countingDatabase } from './counting-database.js';
export { findPostgresBin, type PostgresServer, startPostgresServer } from './postgres-server.js';
export { createTestDatabase, type TestDatabase } from './test-database.js';
