export { assertEventSignatures } from './assert-event-signatures.js';
export { canonicalJson } from './canonical-json.js';
export { didKeyFromKey, publicKeyFromDidKey } from './did-key.js';
export { isSigned, signEvent, verifySignature } from './sign-event.js';
export {
  type SignatureLocation,
  type SignatureRecord,
  signatureRecordPath,
  signatureRecordSchema,
} from './signature-record.js';
export {
  DEFAULT_SIGNATURE_REQUIREMENT,
  type MissingSignature,
  SIGNATURE_REQUIREMENTS,
  type SignatureProblem,
  type SignatureReport,
  type SignatureRequirement,
  type SignerSummary,
  type VerifySignaturesOptions,
} from './signature-report.js';
export { SIGNED_PAYLOAD_VERSION, type SignedPayload, signedPayload, signedPayloadBytes } from './signed-payload.js';
export { createSigningEventLog, type EventSigner, type SigningEventLogOptions } from './signing-event-log.js';
export { type IndexedEvents, verifyEventSignatures } from './verify-signatures.js';
