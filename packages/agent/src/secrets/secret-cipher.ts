import { createHash } from 'node:crypto';
import { fernetDecrypt, fernetEncrypt } from './fernet.js';
import { InvalidSecretKeyError } from './invalid-secret-key-error.js';

/** Encrypts secret values for storage; tokens are interchangeable with the reference's (Python) cipher. */
export interface SecretCipher {
  /** A fresh Fernet token (random IV, current time) for the text. */
  encrypt(text: string): string;
  /** The text inside a token made with this key; throws `SecretDecryptionError` otherwise. */
  decrypt(token: string): string;
  /** Whether the value is a Fernet token this key can decrypt (such values are stored as they are). */
  isToken(value: string): boolean;
}

/**
 * The reference's secret cipher (§7.8): Fernet whose 32 key bytes are SHA-256 of the secret key's UTF-8 bytes
 * (the agent server's `OH_SECRET_KEY`). Throws `InvalidSecretKeyError` for an empty key.
 */
export function createSecretCipher(secretKey: string): SecretCipher {
  if (secretKey === '') throw new InvalidSecretKeyError('the secret key must not be empty');
  const key = createHash('sha256').update(secretKey, 'utf8').digest();
  return {
    encrypt: (text) => fernetEncrypt(key, text),
    decrypt: (token) => fernetDecrypt(key, token),
    isToken(value) {
      try {
        fernetDecrypt(key, value);
        return true;
      } catch {
        return false;
      }
    },
  };
}
