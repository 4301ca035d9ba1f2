import type { KeyObject } from 'node:crypto';

/**
 * Which events must carry a signature for `verifyEventSignatures` to report `verified`:
 * - `after-first-signed` (the default): every event from the first one that has a signature record on. Events
 *   before it (a log the Python reference wrote, or one whose writer turned signing on later) are counted in
 *   `unsignedPrefix` and allowed.
 * - `all`: every event, the first included; a log with no signature at all is `incomplete` too.
 * - `none`: no event needs one; only the signatures present are checked (for a writer that signs some events and
 *   not others on purpose, e.g. only the agent's).
 */
export const SIGNATURE_REQUIREMENTS = ['after-first-signed', 'all', 'none'] as const;
export type SignatureRequirement = (typeof SIGNATURE_REQUIREMENTS)[number];
export const DEFAULT_SIGNATURE_REQUIREMENT: SignatureRequirement = 'after-first-signed';

/** Options of `verifyEventSignatures`. */
export interface VerifySignaturesOptions {
  /** Which events must be signed (see `SignatureRequirement`). Default `after-first-signed`. */
  readonly require?: SignatureRequirement;
  /**
   * The signers to trust, as `did:key` identifiers or Ed25519 keys (public or private). Given, a valid signature by
   * any other key is a problem (`untrusted-signer`): a log re-signed with someone else's key does not verify. List
   * every key of a rotation, old and new. Without it any valid signature is accepted (check `signers` yourself).
   */
  readonly trustedSigners?: readonly (string | KeyObject)[];
}

/** What is wrong with the first event whose signature does not check out. */
export interface SignatureProblem {
  /**
   * `altered`: the event changed after it was signed (what the signature covers differs from the record's hash);
   * `bad-signature`: the event is as signed but the signature does not verify (the record was tampered with);
   * `unreadable`: the signature record or the event cannot be read;
   * `misplaced`: the event is as signed, but not where its signature puts it: the parent it is signed as the child
   * of is not before it in the log, or an event before it has its id (events reordered or removed, or copied in
   * from another log);
   * `gap`: the log has a missing index with events past it (`index` is the missing one; `id` is undefined);
   * `untrusted-signer`: the signature is valid, but its signer is not one of `trustedSigners`.
   */
  readonly kind: 'altered' | 'bad-signature' | 'unreadable' | 'misplaced' | 'gap' | 'untrusted-signer';
  readonly index: number;
  readonly id: string | undefined;
  /** The did:key the record names, where it could be read. */
  readonly signer: string | undefined;
  readonly message: string;
}

/** The first event that the requirement says must be signed but has no signature record. */
export interface MissingSignature {
  readonly index: number;
  readonly id: string;
  readonly message: string;
}

/** One signer of a log's events. */
export interface SignerSummary {
  readonly did: string;
  /** How many events it signed (with a valid signature). */
  readonly events: number;
  /** The index of the first of them. */
  readonly firstIndex: number;
}

/** The outcome of `verifyEventSignatures`. */
export interface SignatureReport {
  /**
   * `verified`: every event the requirement covers is signed, every signature checks out, and at least one event is
   * signed; `unsigned`: no event has a signature record (and the requirement allows that); `incomplete`: an event
   * the requirement covers has no signature record, see `missing` (a signature record deleted, or an event
   * appended without one); `invalid`: a signature does not check out, see `problem` (reported before `incomplete`).
   */
  readonly status: 'verified' | 'unsigned' | 'incomplete' | 'invalid';
  /** The requirement applied. */
  readonly require: SignatureRequirement;
  readonly length: number;
  /** Events with a valid signature. */
  readonly signed: number;
  /** Events without a signature record. */
  readonly unsigned: number;
  /** The index of the first unsigned event, or null. */
  readonly firstUnsigned: number | null;
  /** Unsigned events before the first event with a signature record (all of them when none has one). */
  readonly unsignedPrefix: number;
  /** The first event the requirement says must be signed that has no signature record. */
  readonly missing: MissingSignature | undefined;
  /** Each signer's did:key, in order of first signature. */
  readonly signers: readonly SignerSummary[];
  /** The first event whose signature does not check out. */
  readonly problem: SignatureProblem | undefined;
}
