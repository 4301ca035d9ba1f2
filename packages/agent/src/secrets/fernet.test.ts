import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fernetDecrypt, fernetEncrypt } from './fernet.js';
import { InvalidSecretKeyError } from './invalid-secret-key-error.js';
import { SecretDecryptionError } from './secret-decryption-error.js';

// The Fernet spec's generate/verify vector (https://github.com/fernet/spec, generate.json).
const vector = {
  secret: 'cw_0x689RpI-jtRR7oE8h_eQsKImvJapLeSbXpwF4e4=',
  time: 499162800,
  iv: Uint8Array.from({ length: 16 }, (_, i) => i),
  plaintext: 'hello',
  token: 'gAAAAAAdwJ6wAAECAwQFBgcICQoLDA0ODy021cpGVWKZ_eEwCGM4BLLF_5CV9dOPmrhuVUPgJobwOz7JcbmrR64jVmpU4IwqDA==',
};
const vectorKey = Buffer.from(vector.secret, 'base64url');

describe('fernet', () => {
  it('reproduces the Fernet spec vector', () => {
    expect(fernetEncrypt(vectorKey, vector.plaintext, { iv: vector.iv, time: vector.time })).toBe(vector.token);
  });

  it('decrypts the Fernet spec vector', () => {
    expect(fernetDecrypt(vectorKey, vector.token)).toBe(vector.plaintext);
    expect(fernetDecrypt(vectorKey, vector.token.replace(/=+$/, ''))).toBe(vector.plaintext);
  });

  it('round-trips UTF-8 text of any length with a fresh IV each time', () => {
    const key = createHash('sha256').update('k').digest();
    for (const text of ['', 'a', 'exactly sixteen!', 'ünïcödé 🔑 '.repeat(20)]) {
      const token = fernetEncrypt(key, text);
      expect(token.startsWith('gAAAAA')).toBe(true);
      expect(token).toMatch(/^[A-Za-z0-9_-]+=*$/);
      expect(fernetDecrypt(key, token)).toBe(text);
    }
    expect(fernetEncrypt(key, 'same')).not.toBe(fernetEncrypt(key, 'same'));
  });

  it('rejects tokens from another key, tampered tokens and malformed input', () => {
    const otherKey = createHash('sha256').update('other').digest();
    expect(() => fernetDecrypt(otherKey, vector.token)).toThrow(/signature/);
    const tampered = `${vector.token.slice(0, 40)}${vector.token[40] === 'A' ? 'B' : 'A'}${vector.token.slice(41)}`;
    expect(() => fernetDecrypt(vectorKey, tampered)).toThrow(SecretDecryptionError);
    expect(() => fernetDecrypt(vectorKey, 'not a token!')).toThrow(/base64/);
    expect(() => fernetDecrypt(vectorKey, 'gAAAAA')).toThrow(/length/);
    expect(() => fernetDecrypt(vectorKey, `A${vector.token.slice(1)}`)).toThrow(/version/);
  });

  it('requires a 32-byte key and a 16-byte IV', () => {
    expect(() => fernetEncrypt(new Uint8Array(16), 'x')).toThrow(InvalidSecretKeyError);
    expect(() => fernetDecrypt(new Uint8Array(31), vector.token)).toThrow(InvalidSecretKeyError);
    expect(() => fernetEncrypt(vectorKey, 'x', { iv: new Uint8Array(8) })).toThrow(/IV/);
  });
});
