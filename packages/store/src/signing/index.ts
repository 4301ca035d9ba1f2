export { canonicalJson } from './canonical-json.js';
export { didKeyFromKey, publicKeyFromDidKey } from './did-key.js';
export { isSigned, signEvent, verifySignature } from './sign-event.js';
export {
  type SignatureLocation,
  type SignatureRecord,
  signatureRecordPath,
  signatureRecordSchema,
} from './signature-record.js';
export { SIGNED_PAYLOAD_VERSION, type SignedPayload, signedPayload, signedPayloadBytes } from './signed-payload.js';
export { createSigningEventLog, type EventSigner, type SigningEventLogOptions } from './signing-event-log.js';
export {
  type IndexedEvents,
  type SignatureProblem,
  type SignatureReport,
  type SignerSummary,
  verifyEventSignatures,
} from './verify-signatures.js';
