export {
  type ChainLink,
  type ChainProblem,
  type ChainProblemKind,
  type ChainReport,
  computeChainHash,
  isHeadSignatureValid,
  type SignatureStatus,
  type SignChainHeadOptions,
  type SignedHead,
  signChainHead,
  signHead,
  type VerifyChainOptions,
  verifyEventChain,
} from './chain/index.js';
export { AppendConflictError } from './errors/append-conflict-error.js';
export { ChainTamperedError } from './errors/chain-tampered-error.js';
export { CorruptEventError } from './errors/corrupt-event-error.js';
export { DamagedSegmentError } from './errors/damaged-segment-error.js';
export { DuplicateEventIdError } from './errors/duplicate-event-id-error.js';
export { EventIndexOutOfRangeError } from './errors/event-index-out-of-range-error.js';
export { FileNotFoundError } from './errors/file-not-found-error.js';
export { InvalidDidKeyError } from './errors/invalid-did-key-error.js';
export { InvalidEventIdError } from './errors/invalid-event-id-error.js';
export { InvalidPathError } from './errors/invalid-path-error.js';
export { InvalidSigningKeyError } from './errors/invalid-signing-key-error.js';
export { InvalidStoreOptionsError } from './errors/invalid-store-options-error.js';
export { LeaseHeldError } from './errors/lease-held-error.js';
export { LeaseLostError } from './errors/lease-lost-error.js';
export { LogGapError } from './errors/log-gap-error.js';
export { MissingDependencyError } from './errors/missing-dependency-error.js';
export { NotRegularFileError } from './errors/not-regular-file-error.js';
export { ReadOnlyLogError } from './errors/read-only-log-error.js';
export { SegmentInvariantError } from './errors/segment-invariant-error.js';
export { SignaturesNotVerifiedError } from './errors/signatures-not-verified-error.js';
export { StoreBackendError } from './errors/store-backend-error.js';
export { StoreInvariantError } from './errors/store-invariant-error.js';
export { UnknownEventIdError } from './errors/unknown-event-id-error.js';
export { UnsupportedLayoutError } from './errors/unsupported-layout-error.js';
export { StoreError } from './errors.js';
export type {
  AppendFence,
  EventLogAppendOptions,
  EventLogLike,
  LogGap,
  SetAsidePastGap,
} from './event-log/event-log-like.js';
export {
  type EventFileNameParts,
  eventFileName,
  isStorableEventId,
  parseEventFileName,
} from './event-log/file-names.js';
export type { SettledEntry } from './event-log/settled-entry.js';
export type { LogEntry, SubscribeOptions } from './event-log/subscription.js';
export {
  type AppendOptions,
  type DamagedSegmentPolicy,
  EventLog,
  type EventLogLayout,
  type EventLogLogger,
  type EventLogOptions,
  type RefreshOptions,
} from './event-log.js';
export type { AppendFile, FileStore, FileStoreWriteOptions, StoreWrite, WritePairOptions } from './file-store.js';
export {
  type AcquireLeaseOptions,
  createFileStoreLeases,
  FileStoreLeases,
  type FileStoreLeasesOptions,
  fenceEventLog,
  type Lease,
  type LeaseClock,
  type Leases,
  systemLeaseClock,
  watchLeaseDeadline,
  writeUnderLease,
} from './lease/index.js';
export { createLocalFileStore, type LocalFileStoreOptions } from './local-file-store.js';
export { createMemoryFileStore } from './memory-file-store.js';
export {
  createS3FileStore,
  type S3ClientLike,
  type S3Credentials,
  type S3FileStoreOptions,
} from './s3-file-store.js';
export {
  assertEventSignatures,
  canonicalJson,
  createSigningEventLog,
  DEFAULT_SIGNATURE_REQUIREMENT,
  didKeyFromKey,
  type EventSigner,
  type IndexedEvents,
  isSigned,
  type MissingSignature,
  publicKeyFromDidKey,
  SIGNATURE_REQUIREMENTS,
  SIGNED_PAYLOAD_VERSION,
  type SignatureLocation,
  type SignatureProblem,
  type SignatureRecord,
  type SignatureReport,
  type SignatureRequirement,
  type SignedPayload,
  type SignerSummary,
  type SigningEventLogOptions,
  signatureRecordPath,
  signatureRecordSchema,
  signEvent,
  signedPayload,
  signedPayloadBytes,
  type VerifySignaturesOptions,
  verifyEventSignatures,
  verifySignature,
} from './signing/index.js';
export { type ValidateStorePathOptions, validateStorePath } from './store-path.js';
