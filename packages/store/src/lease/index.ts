export { fenceEventLog } from './fenced-event-log.js';
export { writeUnderLease } from './fenced-write.js';
export { createFileStoreLeases, FileStoreLeases, type FileStoreLeasesOptions } from './file-store-leases.js';
export type { AcquireLeaseOptions, Lease, Leases } from './lease.js';
export { type LeaseClock, systemLeaseClock } from './lease-clock.js';
export { watchLeaseDeadline } from './lease-deadline.js';
