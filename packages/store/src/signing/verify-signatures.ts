import type { AnyEvent } from '@x/events';
import { verifySignature } from './sign-event.js';
import { payloadHash, readSignatureRecord, type SignatureLocation } from './signature-record.js';
import { signedPayloadBytes } from './signed-payload.js';

/** What is wrong with the first event whose signature does not check out. */
export interface SignatureProblem {
  /**
   * `altered`: the event changed after it was signed (what the signature covers differs from the record's hash);
   * `bad-signature`: the event is as signed but the signature does not verify (the record was tampered with);
   * `unreadable`: the signature record or the event cannot be read.
   */
  readonly kind: 'altered' | 'bad-signature' | 'unreadable';
  readonly index: number;
  readonly id: string | undefined;
  /** The did:key the record names, where it could be read. */
  readonly signer: string | undefined;
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
  /** `verified`: every signed event checks out (and at least one is signed); `unsigned`: none is; `invalid`: see `problem`. */
  readonly status: 'verified' | 'unsigned' | 'invalid';
  readonly length: number;
  /** Events with a valid signature. */
  readonly signed: number;
  /** Events without a signature record. */
  readonly unsigned: number;
  /** The index of the first unsigned event, or null. */
  readonly firstUnsigned: number | null;
  /** Each signer's did:key, in order of first signature. */
  readonly signers: readonly SignerSummary[];
  /** The first event whose signature does not check out. */
  readonly problem: SignatureProblem | undefined;
}

/** Where the events come from: a log (any `EventLogLike`) or just something that reads one by index. */
export interface IndexedEvents {
  readonly length: number;
  get(index: number): Promise<AnyEvent>;
  /** The id at `index` without reading the event (every `EventLogLike` has it). */
  idAt?(index: number): string;
}

/**
 * Checks the signature of every event of `events` against its record in `location` (`<dir>/.chain/signatures/`)
 * and reports each signer's did:key and the first event whose signature does not check out. Unsigned events are
 * counted, not failed: which events must be signed is the caller's policy.
 */
export async function verifyEventSignatures(
  events: IndexedEvents,
  location: SignatureLocation,
): Promise<SignatureReport> {
  const signers = new Map<string, { events: number; firstIndex: number }>();
  let signed = 0;
  let unsigned = 0;
  let firstUnsigned: number | null = null;
  let problem: SignatureProblem | undefined;
  const length = events.length;
  for (let index = 0; index < length; index++) {
    let event: AnyEvent;
    try {
      event = await events.get(index);
    } catch (error) {
      // An event that cannot be read is a signature problem only when it was signed: the chain check reports
      // damage to unsigned events (and a file a power loss left unfinished is not tampering).
      const id = idOf(events, index);
      const record = id === undefined ? undefined : await readSignatureRecord(location, id);
      if (id !== undefined && record === undefined) {
        unsigned++;
        firstUnsigned ??= index;
        continue;
      }
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
    if (record === undefined) {
      unsigned++;
      firstUnsigned ??= index;
      continue;
    }
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
    signed++;
    const known = signers.get(record.signer);
    if (known === undefined) signers.set(record.signer, { events: 1, firstIndex: index });
    else known.events++;
  }
  return {
    status: problem !== undefined ? 'invalid' : signed === 0 ? 'unsigned' : 'verified',
    length,
    signed,
    unsigned,
    firstUnsigned,
    signers: [...signers].map(([did, summary]) => ({ did, ...summary })),
    problem,
  };
}

function idOf(events: IndexedEvents, index: number): string | undefined {
  try {
    return events.idAt?.(index);
  } catch {
    return undefined;
  }
}
