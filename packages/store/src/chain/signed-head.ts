import { createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { isFileNotFound } from '../event-log/is-file-not-found.js';
import type { FileStore } from '../file-store.js';

/** The signed head of a chain, kept at `<dir>/.chain/signed-head.json` (a directory the reference ignores). */
export interface SignedHead {
  /** Number of events the signature covers (indices 0 … length-1). */
  readonly length: number;
  /** Link hash of the event at `length - 1`. */
  readonly hash: string;
  /** Ed25519 signature (base64) over `signedHeadMessage(length, hash)`. */
  readonly signature: string;
  /** The signer's public key (SPKI PEM), for information only: verification uses the key the caller trusts. */
  readonly publicKey: string;
}

export function signedHeadPath(dir: string): string {
  return `${dir}/.chain/signed-head.json`;
}

/** The bytes that are signed: a fixed prefix, the length and the head hash. */
export function signedHeadMessage(length: number, hash: string): Buffer {
  return Buffer.from(`x-chain-head-v1\n${length}\n${hash}`, 'utf8');
}

export function signHead(length: number, hash: string, privateKey: KeyObject): SignedHead {
  const signature = sign(null, signedHeadMessage(length, hash), privateKey).toString('base64');
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  return { length, hash, signature, publicKey };
}

export function isHeadSignatureValid(head: SignedHead, publicKey: KeyObject): boolean {
  try {
    return verify(null, signedHeadMessage(head.length, head.hash), publicKey, Buffer.from(head.signature, 'base64'));
  } catch {
    return false;
  }
}

/** Reads the signed head; undefined when there is none, `'unreadable'` when it is not a signed head. */
export async function readSignedHead(store: FileStore, dir: string): Promise<SignedHead | 'unreadable' | undefined> {
  let text: string;
  try {
    text = await store.read(signedHeadPath(dir));
  } catch (error) {
    if (isFileNotFound(error)) return undefined;
    return 'unreadable';
  }
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const { length, hash, signature, publicKey } = value;
    if (!Number.isSafeInteger(length) || typeof hash !== 'string' || typeof signature !== 'string') return 'unreadable';
    return { length: length as number, hash, signature, publicKey: typeof publicKey === 'string' ? publicKey : '' };
  } catch {
    return 'unreadable';
  }
}
