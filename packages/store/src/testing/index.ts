export {
  type DamagedEventLogContractLocation,
  describeDamagedEventLogContract,
} from './damaged-event-log-contract.js';
export {
  contractMessageEvent,
  describeEventLogContract,
  type EventLogContractLocation,
} from './event-log-contract.js';
export { describeFileStoreContract, type FileStoreContractOptions } from './file-store-contract.js';
export {
  describeLeasesContract,
  type LeasesContractHooks,
  type LeasesContractLocation,
} from './lease-contract.js';
export { advanceUntilSettled, createManualClock, type ManualClock } from './manual-clock.js';
export { type MotoServer, startMotoServer } from './moto-server.js';
export { createTestBucket, createTestS3Client, type TestBucket } from './test-bucket.js';
