export {
  type ConversationOrder,
  type ConversationPage,
  type ConversationRecord,
  type ConversationSearch,
  type ForkedConversation,
  type ForkLink,
  PostgresConversationIndex,
} from './conversations/postgres-conversation-index.js';
export { type ConnectPostgresOptions, connectPostgres, type PostgresDatabase, type QueryOptions } from './database.js';
export { InvalidPostgresOptionsError } from './errors/invalid-postgres-options-error.js';
export { MissingDependencyError } from './errors/missing-dependency-error.js';
export { SchemaTooNewError } from './errors/schema-too-new-error.js';
export { PostgresStoreError, type PostgresStoreErrorCode } from './errors.js';
export type { EventNotifier } from './event-log/event-notifier.js';
export {
  type LeaseFence,
  PostgresEventLog,
  type PostgresEventLogOptions,
} from './event-log/postgres-event-log.js';
export { createPostgresFileStore } from './file-store/postgres-file-store.js';
export { redactDatabaseUrl } from './internal/redact-url.js';
export {
  createPostgresLeases,
  type PostgresLease,
  PostgresLeases,
  type PostgresLeasesOptions,
} from './lease/postgres-leases.js';
