import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidSigningKeyError } from '../src/errors/invalid-signing-key-error.js';
import { signEvent, verifySignature } from '../src/signing/index.js';
import type { SignatureRecord } from '../src/signing/signature-record.js';
import { userMessageEvent } from './helpers/events.js';

// `verifySignature` answers one question for a caller holding an event and a record: did the key the record names
// sign this event? Anything else about the record (another event's, a signer that is no key, a signature that is
// not one) is a no, never a yes and never a throw.

const { privateKey } = generateKeyPairSync('ed25519');

describe('verifySignature', () => {
  it('is true for the record signEvent made of the event', () => {
    const event = userMessageEvent('hello');
    expect(verifySignature(event, signEvent(event, privateKey))).toBe(true);
  });

  it('is false for a valid record of another event, even one with the same content', () => {
    const event = userMessageEvent('hello');
    const other = { ...event, id: `${event.id}-other` };
    expect(verifySignature(event, signEvent(other, privateKey))).toBe(false);
    // The record of the other event names it: its id is what tells them apart.
    expect(verifySignature(other, signEvent(other, privateKey))).toBe(true);
  });

  it('is false, not a throw, for a signer that is not an Ed25519 did:key', () => {
    const event = userMessageEvent('hello');
    const record = signEvent(event, privateKey);
    for (const signer of ['did:web:example.com', 'did:key:zNotBase58!', '']) {
      expect(verifySignature(event, { ...record, signer })).toBe(false);
    }
  });

  it('is false, not a throw, for a signature that is not one', () => {
    const event = userMessageEvent('hello');
    const record = signEvent(event, privateKey);
    expect(verifySignature(event, { ...record, signature: '' })).toBe(false);
    // A record built by a caller without the types: its signature is not text.
    const untyped = { ...record, signature: 64 } as unknown as SignatureRecord;
    expect(verifySignature(event, untyped)).toBe(false);
  });

  it('names the key it was given in the error for a key that cannot sign', () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const event = userMessageEvent('hello');
    expect(() => signEvent(event, publicKey)).toThrow(InvalidSigningKeyError);
    expect(() => signEvent(event, publicKey)).toThrow(/not an Ed25519 public key$/);
  });
});
