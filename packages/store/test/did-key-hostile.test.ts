// A did:key names its key type in a multicodec prefix: only Ed25519 (0xed 0x01) may be read as a signing key.
// Every other spelling is an InvalidDidKeyError, never another error and never a key of the wrong type.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidDidKeyError } from '../src/errors/invalid-did-key-error.js';
import { didKeyFromKey, publicKeyFromDidKey } from '../src/signing/index.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** base58btc, written out here so the test does not trust the encoder it checks. */
function base58(bytes: readonly number[]): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  let zeros = 0;
  while (bytes[zeros] === 0) zeros++;
  return '1'.repeat(zeros) + text;
}

const rawKey = Array.from({ length: 32 }, (_, index) => (index * 37 + 11) % 256);
const refused = (did: string) => {
  let caught: unknown;
  try {
    publicKeyFromDidKey(did);
  } catch (error) {
    caught = error;
  }
  return InvalidDidKeyError.isInstance(caught);
};

describe('publicKeyFromDidKey', () => {
  it('reads an Ed25519 did:key built from its multicodec bytes', () => {
    const did = `did:key:z${base58([0xed, 0x01, ...rawKey])}`;
    const key = publicKeyFromDidKey(did);
    expect(key.asymmetricKeyType).toBe('ed25519');
    expect(Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url')).toEqual(Buffer.from(rawKey));
    const generated = generateKeyPairSync('ed25519').publicKey;
    expect(publicKeyFromDidKey(didKeyFromKey(generated)).equals(generated)).toBe(true);
  });

  it('refuses the did:key of another key type with the same length and second prefix byte', () => {
    // X25519 (0xec 0x01, did:key:z6LS…): 34 bytes like Ed25519, a key-agreement key, never a signing key.
    expect(refused(`did:key:z${base58([0xec, 0x01, ...rawKey])}`)).toBe(true);
    // An Ed25519 first byte with another second one.
    expect(refused(`did:key:z${base58([0xed, 0x02, ...rawKey])}`)).toBe(true);
  });

  it('refuses leading zero bytes, other lengths, and text that is not base58btc', () => {
    expect(refused(`did:key:z1${base58([0xed, 0x01, ...rawKey])}`)).toBe(true);
    expect(refused('did:key:z111')).toBe(true);
    expect(refused(`did:key:z${base58([0xed, 0x01, ...rawKey.slice(1)])}`)).toBe(true);
    expect(refused(`did:key:z${base58([0xed, 0x01, ...rawKey, 0])}`)).toBe(true);
    for (const bad of ['0', 'O', 'I', 'l', '+', ' ']) {
      expect(refused(`did:key:z${base58([0xed, 0x01, ...rawKey]).slice(0, 10)}${bad}`)).toBe(true);
    }
    expect(refused('did:key:')).toBe(true);
    expect(refused('did:web:example.com')).toBe(true);
  });
});
