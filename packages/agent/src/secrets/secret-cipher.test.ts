import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fernetEncrypt } from './fernet.js';
import { InvalidSecretKeyError } from './invalid-secret-key-error.js';
import { createSecretCipher } from './secret-cipher.js';
import { SecretDecryptionError } from './secret-decryption-error.js';

describe('createSecretCipher', () => {
  it('round-trips text and marks its own tokens', () => {
    const cipher = createSecretCipher('server secret');
    const token = cipher.encrypt('ghp_value');
    expect(token.startsWith('gAAAAA')).toBe(true);
    expect(token).not.toContain('ghp_value');
    expect(cipher.decrypt(token)).toBe('ghp_value');
    expect(cipher.isToken(token)).toBe(true);
    expect(cipher.isToken('ghp_value')).toBe(false);
  });

  it('uses SHA-256 of the secret key as the Fernet key bytes, like the reference', () => {
    const keyBytes = createHash('sha256').update('server secret', 'utf8').digest();
    const token = fernetEncrypt(keyBytes, 'made elsewhere', { time: 1_700_000_000 });
    expect(createSecretCipher('server secret').decrypt(token)).toBe('made elsewhere');
  });

  it('refuses tokens made with another key', () => {
    const token = createSecretCipher('key one').encrypt('value');
    const other = createSecretCipher('key two');
    expect(other.isToken(token)).toBe(false);
    expect(() => other.decrypt(token)).toThrow(SecretDecryptionError);
  });

  it('rejects an empty secret key', () => {
    expect(() => createSecretCipher('')).toThrow(InvalidSecretKeyError);
  });
});
