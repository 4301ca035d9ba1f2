import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidDidKeyError } from '../errors/invalid-did-key-error.js';
import { InvalidSigningKeyError } from '../errors/invalid-signing-key-error.js';
import { didKeyFromKey } from './did-key.js';
import { describeKey } from './key-description.js';
import { assertSigningKey } from './sign-event.js';

const ed25519 = generateKeyPairSync('ed25519');
const x25519 = generateKeyPairSync('x25519');
const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const secret = createSecretKey(Buffer.alloc(32, 7));

describe('describeKey', () => {
  it('names the algorithm as it is spelled, with the article it is read with', () => {
    expect(describeKey(ed25519.publicKey)).toBe('an Ed25519 public key');
    expect(describeKey(x25519.privateKey)).toBe('an X25519 private key');
    expect(describeKey(ec.privateKey)).toBe('an EC private key');
    expect(describeKey(secret)).toBe('a secret (symmetric) key');
  });
});

describe('the messages that refuse a key', () => {
  it('say what a signing key that is not an Ed25519 private key was', () => {
    expect(() => assertSigningKey(ed25519.publicKey)).toThrow(
      new InvalidSigningKeyError('a signing key must be an Ed25519 private key, not an Ed25519 public key'),
    );
    expect(() => assertSigningKey(secret)).toThrow(/, not a secret \(symmetric\) key$/);
    expect(() => assertSigningKey(ec.privateKey)).toThrow(/, not an EC private key$/);
  });

  it('say which key has no Ed25519 did:key', () => {
    expect(() => didKeyFromKey(x25519.privateKey)).toThrow(
      new InvalidDidKeyError('an X25519 public key has no Ed25519 did:key'),
    );
    expect(() => didKeyFromKey(secret)).toThrow(/^a secret \(symmetric\) key has no Ed25519 did:key$/);
  });
});
