import { KeyObject } from 'node:crypto';
import { type AnyEvent, ROOT_PARENT_ID } from '@x/events';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import type { LogGap } from '../event-log/event-log-like.js';
import { didKeyFromKey, publicKeyFromDidKey } from './did-key.js';
import { verifySignature } from './sign-event.js';
import { payloadHash, readSignatureRecord, type SignatureLocation } from './signature-record.js';
import {
  DEFAULT_SIGNATURE_REQUIREMENT,
  type MissingSignature,
  SIGNATURE_REQUIREMENTS,
  type SignatureProblem,
  type SignatureReport,
  type SignatureRequirement,
  type VerifySignaturesOptions,
} from './signature-report.js';
import { signedPayloadBytes } from './signed-payload.js';

/** Where the events come from: a log (any `EventLogLike`) or just something that reads one by index. */
export interface IndexedEvents {
  readonly length: number;
  get(index: number): Promise<AnyEvent>;
  /** The id at `index` without reading the event (every `EventLogLike` has it). */
  idAt?(index: number): string;
  /** A missing index with events past it (every `EventLogLike` tells it): the log is not all there. */
  readonly gap?: LogGap | undefined;
}

/**
 * Checks the signature of every event of `events` against its record in `location` (`<dir>/.chain/signatures/`)
 * and reports each signer's did:key, the first event whose signature does not check out, and the first event that
 * `options.require` says must be signed but has no record (by default every event from the first signed one on:
 * deleting the records of the last events, or appending events without one, is `incomplete`, not `verified`).
 * A signed event is also checked for its place: the parent its signature names must come before it in the log, and
 * its id must not be there twice (`misplaced`: events reordered, removed or copied in from another log); a log
 * with a gap is `invalid` at the missing index, whatever its events hold.
 */
export async function verifyEventSignatures(
  events: IndexedEvents,
  location: SignatureLocation,
  options: VerifySignaturesOptions = {},
): Promise<SignatureReport> {
  const require = requirementOf(options);
  const trusted = trustedSignersOf(options);
  const signers = new Map<string, { events: number; firstIndex: number }>();
  let signed = 0;
  let unsigned = 0;
  let firstUnsigned: number | null = null;
  // The first event with a signature record of any kind, a bad one included: from there on, signing was on.
  let firstWithRecord: number | null = null;
  let unsignedPrefix = 0;
  let missing: MissingSignature | undefined;
  let problem: SignatureProblem | undefined;
  // The ids of the events before the one being checked: where a signed parent must be, and a signed id must not.
  const before = new Set<string>();
  const countUnsigned = (index: number, id: string): void => {
    unsigned++;
    firstUnsigned ??= index;
    if (firstWithRecord === null) unsignedPrefix++;
    missing ??= missingSignature(require, firstWithRecord, index, id);
  };
  const length = events.length;
  for (let index = 0; index < length; index++) {
    let event: AnyEvent;
    try {
      event = await events.get(index);
    } catch (error) {
      // An event that cannot be read is a signature problem only when it was signed: the chain check reports
      // damage to unsigned events (and a file a power loss left unfinished is not tampering).
      const id = idOf(events, index);
      if (id !== undefined) before.add(id);
      const record = id === undefined ? undefined : await readSignatureRecord(location, id);
      if (id !== undefined && record === undefined) {
        countUnsigned(index, id);
        continue;
      }
      if (record !== undefined) firstWithRecord ??= index;
      problem ??= {
        kind: 'unreadable',
        index,
        id,
        signer: record !== undefined && !('problem' in record) ? record.signer : undefined,
        message: `event ${index}${id === undefined ? '' : ` (id ${id})`} cannot be read: ${(error as Error).message}`,
      };
      continue;
    }
    const record = await readSignatureRecord(location, event.id);
    const repeated = before.has(event.id);
    before.add(event.id);
    if (record === undefined) {
      countUnsigned(index, event.id);
      continue;
    }
    firstWithRecord ??= index;
    if ('problem' in record) {
      problem ??= { kind: 'unreadable', index, id: event.id, signer: undefined, message: record.problem };
      continue;
    }
    if (!verifySignature(event, record)) {
      const altered = payloadHash(signedPayloadBytes(event)) !== record.payload_hash;
      problem ??= {
        kind: altered ? 'altered' : 'bad-signature',
        index,
        id: event.id,
        signer: record.signer,
        message: altered
          ? `event ${index} (id ${event.id}) changed after ${record.signer} signed it`
          : `the signature of event ${index} (id ${event.id}) by ${record.signer} does not verify`,
      };
      continue;
    }
    if (trusted !== undefined && !trusted.has(record.signer)) {
      problem ??= {
        kind: 'untrusted-signer',
        index,
        id: event.id,
        signer: record.signer,
        message: `event ${index} (id ${event.id}) is signed by ${record.signer}, which is not a trusted signer`,
      };
      continue;
    }
    const misplaced = placementProblem(event, index, repeated, before);
    if (misplaced !== undefined) {
      problem ??= { kind: 'misplaced', index, id: event.id, signer: record.signer, message: misplaced };
      continue;
    }
    signed++;
    const known = signers.get(record.signer);
    if (known === undefined) signers.set(record.signer, { events: 1, firstIndex: index });
    else known.events++;
  }
  const gap = events.gap;
  if (gap !== undefined) {
    problem ??= {
      kind: 'gap',
      index: gap.missingIndex,
      id: undefined,
      signer: undefined,
      message: `event ${gap.missingIndex} is missing, and ${gap.filesPastGap} event file(s) lie past it: the log is not all there`,
    };
  }
  return {
    status: statusOf(problem, missing, firstWithRecord),
    require,
    length,
    signed,
    unsigned,
    firstUnsigned,
    unsignedPrefix,
    missing,
    signers: [...signers].map(([did, summary]) => ({ did, ...summary })),
    problem,
  };
}

/**
 * Why a signed event is not where its signature puts it, or undefined. Its signed `parent_id` must name an event
 * before it (or the root); an event without one is placed by its index alone, as the reference reads it.
 */
function placementProblem(
  event: AnyEvent,
  index: number,
  repeated: boolean,
  before: ReadonlySet<string>,
): string | undefined {
  if (repeated) return `event ${index} (id ${event.id}) is signed, and an event before it has the same id`;
  const parent = event.parent_id;
  // `before` holds this event's own id too: an event is never its own parent.
  if (parent === undefined || parent === ROOT_PARENT_ID || (parent !== event.id && before.has(parent)))
    return undefined;
  return (
    `event ${index} (id ${event.id}) is signed as the child of ${parent}, which is not before it in the log ` +
    '(events reordered or removed, or this one copied in from another log)'
  );
}

/** The did:keys of `options.trustedSigners`; `InvalidDidKeyError` for an entry that names no Ed25519 key. */
function trustedSignersOf(options: VerifySignaturesOptions): ReadonlySet<string> | undefined {
  const given = options.trustedSigners;
  if (given === undefined) return undefined;
  if (!Array.isArray(given)) {
    throw new InvalidStoreOptionsError('trustedSigners', 'expected an array of did:key identifiers or Ed25519 keys');
  }
  // A did:key is read back to its key and named again, so only a well-formed Ed25519 identifier is trusted.
  return new Set(
    given.map((signer, index) => {
      if (typeof signer === 'string') return didKeyFromKey(publicKeyFromDidKey(signer));
      if (signer instanceof KeyObject) return didKeyFromKey(signer);
      throw new InvalidStoreOptionsError(`trustedSigners[${index}]`, 'expected a did:key identifier or an Ed25519 key');
    }),
  );
}

function requirementOf(options: VerifySignaturesOptions): SignatureRequirement {
  const require = options.require ?? DEFAULT_SIGNATURE_REQUIREMENT;
  // Refused rather than read as the default: a misspelt requirement must not quietly relax the check.
  if (!(SIGNATURE_REQUIREMENTS as readonly string[]).includes(require)) {
    throw new InvalidStoreOptionsError(
      'require',
      `expected one of ${SIGNATURE_REQUIREMENTS.join(', ')}, got ${JSON.stringify(require)}`,
    );
  }
  return require;
}

/** The unsigned event at `index` as a missing signature, when `require` covers it. */
function missingSignature(
  require: SignatureRequirement,
  firstWithRecord: number | null,
  index: number,
  id: string,
): MissingSignature | undefined {
  if (require === 'all') {
    return { index, id, message: `event ${index} (id ${id}) has no signature record, and every event must be signed` };
  }
  if (require === 'after-first-signed' && firstWithRecord !== null) {
    return {
      index,
      id,
      message: `event ${index} (id ${id}) has no signature record, though event ${firstWithRecord} before it is signed`,
    };
  }
  return undefined;
}

function statusOf(
  problem: SignatureProblem | undefined,
  missing: MissingSignature | undefined,
  firstWithRecord: number | null,
): SignatureReport['status'] {
  if (problem !== undefined) return 'invalid';
  if (missing !== undefined) return 'incomplete';
  return firstWithRecord === null ? 'unsigned' : 'verified';
}

function idOf(events: IndexedEvents, index: number): string | undefined {
  try {
    return events.idAt?.(index);
  } catch {
    return undefined;
  }
}
