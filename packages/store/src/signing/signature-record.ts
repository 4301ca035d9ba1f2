import { createHash } from 'node:crypto';
import { z } from 'zod';
import { isFileNotFound } from '../event-log/is-file-not-found.js';
import type { FileStore } from '../file-store.js';

/**
 * An event's signature, kept outside its event file (the reference rejects unknown fields in event files), in
 * `<dir>/.chain/signatures/<event id>.json` beside the chain records: a directory the reference ignores.
 */
export const signatureRecordSchema = z.object({
  v: z.literal(1),
  /** The id of the event signed. */
  id: z.string().min(1),
  /** Who signed: the `did:key` of the signer's Ed25519 key (the key is recovered from it to verify). */
  signer: z.string().regex(/^did:key:z[1-9A-HJ-NP-Za-km-z]+$/, 'must be a did:key:z… identifier'),
  alg: z.literal('Ed25519'),
  /** sha256 (hex) of the signed bytes, so a failed check can tell a changed event from a broken signature. */
  payload_hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** The Ed25519 signature (base64url) over `signedPayloadBytes(event)`. */
  signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'must be 64 bytes in base64url'),
});
export type SignatureRecord = z.infer<typeof signatureRecordSchema>;

/** Where signature records live: any object naming a store and an event directory (an `EventLog` is one). */
export interface SignatureLocation {
  readonly store: FileStore;
  /** The event directory inside the store (`<conversation>/events`). */
  readonly dir: string;
}

export function signatureRecordPath(dir: string, id: string): string {
  return `${dir}/.chain/signatures/${id}.json`;
}

export function payloadHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function writeSignatureRecord(location: SignatureLocation, record: SignatureRecord): Promise<void> {
  await location.store.write(signatureRecordPath(location.dir, record.id), `${JSON.stringify(record)}\n`);
}

/** Writes the record unless its event already has one; true when it wrote it. */
export function writeSignatureRecordIfAbsent(location: SignatureLocation, record: SignatureRecord): Promise<boolean> {
  return location.store.writeIfAbsent(signatureRecordPath(location.dir, record.id), `${JSON.stringify(record)}\n`);
}

/** The event's record; `undefined` when it has none, `{ problem }` when one is there but is not a record. */
export async function readSignatureRecord(
  location: SignatureLocation,
  id: string,
): Promise<SignatureRecord | { problem: string } | undefined> {
  const path = signatureRecordPath(location.dir, id);
  let text: string;
  try {
    text = await location.store.read(path);
  } catch (error) {
    if (isFileNotFound(error)) return undefined;
    return { problem: `${location.store.describe(path)} cannot be read: ${(error as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: `${location.store.describe(path)} is not JSON` };
  }
  const parsed = signatureRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `${location.store.describe(path)}: ${issue?.path.join('.') || '(root)'} ${issue?.message}` };
  }
  if (parsed.data.id !== id) {
    return { problem: `${location.store.describe(path)} signs event ${parsed.data.id}, not ${id}` };
  }
  return parsed.data;
}
