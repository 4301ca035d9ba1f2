import { createPublicKey, type KeyObject } from 'node:crypto';
import { InvalidDidKeyError } from '../errors/invalid-did-key-error.js';
import { describeKey } from './key-description.js';

/** Multicodec prefix of an Ed25519 public key (`ed25519-pub`, 0xed as an unsigned varint: 0xed 0x01). */
const ED25519_PUB = [0xed, 0x01] as const;
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * The `did:key` identifier of an Ed25519 key (public, or private: its public half is used):
 * `did:key:z` + base58btc(0xed 0x01 + the 32 raw public key bytes), so always `did:key:z6Mk…`.
 */
export function didKeyFromKey(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  if (publicKey.asymmetricKeyType !== 'ed25519') {
    throw new InvalidDidKeyError(`${describeKey(publicKey)} has no Ed25519 did:key`);
  }
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  return `did:key:z${base58Encode(Uint8Array.from([...ED25519_PUB, ...raw]))}`;
}

/** The Ed25519 public key a `did:key` names. Throws `InvalidDidKeyError` for anything else. */
export function publicKeyFromDidKey(did: string): KeyObject {
  if (!did.startsWith('did:key:z'))
    throw new InvalidDidKeyError(`${JSON.stringify(did)} is not a did:key:z… identifier`);
  const bytes = base58Decode(did.slice('did:key:z'.length));
  if (bytes === undefined) throw new InvalidDidKeyError(`${JSON.stringify(did)} is not base58btc after did:key:z`);
  if (bytes.length !== 34 || bytes[0] !== ED25519_PUB[0] || bytes[1] !== ED25519_PUB[1]) {
    throw new InvalidDidKeyError(`${JSON.stringify(did)} is not an Ed25519 did:key (multicodec 0xed01 and 32 bytes)`);
  }
  const x = Buffer.from(bytes.subarray(2)).toString('base64url');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  return '1'.repeat(zeros) + text;
}

function base58Decode(text: string): Uint8Array | undefined {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit === -1) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes]);
}
