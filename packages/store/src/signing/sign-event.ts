import { type KeyObject, sign, verify } from 'node:crypto';
import type { AnyEvent } from '@x/events';
import { InvalidSigningKeyError } from '../errors/invalid-signing-key-error.js';
import { didKeyFromKey, publicKeyFromDidKey } from './did-key.js';
import { describeKey } from './key-description.js';
import { payloadHash, readSignatureRecord, type SignatureLocation, type SignatureRecord } from './signature-record.js';
import { signedPayloadBytes } from './signed-payload.js';

/** Signs `event` with an Ed25519 private key: the record to keep beside the log (see `SignatureRecord`). */
export function signEvent(event: AnyEvent, privateKey: KeyObject): SignatureRecord {
  assertSigningKey(privateKey);
  const bytes = signedPayloadBytes(event);
  return {
    v: 1,
    id: event.id,
    signer: didKeyFromKey(privateKey),
    alg: 'Ed25519',
    payload_hash: payloadHash(bytes),
    signature: sign(null, bytes, privateKey).toString('base64url'),
  };
}

/**
 * True when `record` is a valid signature of `event` by the key its `signer` names. False for a record of
 * another event, a signer that is not an Ed25519 `did:key`, or any change to what `signedPayload` covers.
 */
export function verifySignature(event: AnyEvent, record: SignatureRecord): boolean {
  if (record.id !== event.id) return false;
  let publicKey: KeyObject;
  try {
    publicKey = publicKeyFromDidKey(record.signer);
  } catch {
    return false;
  }
  try {
    return verify(null, signedPayloadBytes(event), publicKey, Buffer.from(record.signature, 'base64url'));
  } catch {
    return false;
  }
}

/**
 * True when `event` carries a valid signature in the log's signature records (`log` is an `EventLog`, or any
 * `{ store, dir }` naming where the events are). False when it has none, or one that does not verify.
 */
export async function isSigned(event: AnyEvent, log: SignatureLocation): Promise<boolean> {
  const record = await readSignatureRecord(log, event.id);
  return record !== undefined && !('problem' in record) && verifySignature(event, record);
}

/** Throws `InvalidSigningKeyError` unless `key` is an Ed25519 private key. */
export function assertSigningKey(key: KeyObject): void {
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') {
    throw new InvalidSigningKeyError(`a signing key must be an Ed25519 private key, not ${describeKey(key)}`);
  }
}
