import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { InvalidSecretKeyError } from './invalid-secret-key-error.js';
import { SecretDecryptionError } from './secret-decryption-error.js';

// Layout of a Fernet token (https://github.com/fernet/spec): version ‖ timestamp ‖ IV ‖ ciphertext ‖ HMAC.
const version = 0x80;
const headerLength = 1 + 8 + 16;
const macLength = 32;
const blockLength = 16;
const base64UrlPattern = /^[A-Za-z0-9_-]*={0,2}$/;

export interface FernetEncryptOptions {
  /** 16-byte IV; random by default. Fixed only to reproduce test vectors. */
  iv?: Uint8Array;
  /** Token time in seconds since the epoch; now by default. */
  time?: number;
}

/**
 * Encrypts with Fernet as Python's `cryptography` does. `key` is the 32 raw key bytes (the base64url-decoded
 * Fernet key): the first 16 sign, the last 16 are the AES-128-CBC key. Returns URL-safe base64 with padding.
 */
export function fernetEncrypt(
  key: Uint8Array,
  plaintext: string | Uint8Array,
  options: FernetEncryptOptions = {},
): string {
  const { signingKey, encryptionKey } = splitKey(key);
  const iv = Buffer.from(options.iv ?? randomBytes(16));
  if (iv.length !== 16) throw new InvalidSecretKeyError(`a Fernet IV must be 16 bytes, got ${iv.length}`);
  const time = options.time ?? Math.floor(Date.now() / 1000);
  const timestamp = Buffer.alloc(8);
  timestamp.writeBigUInt64BE(BigInt(Math.floor(time)));
  const cipher = createCipheriv('aes-128-cbc', encryptionKey, iv);
  const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : Buffer.from(plaintext);
  const ciphertext = Buffer.concat([cipher.update(data), cipher.final()]);
  const body = Buffer.concat([Buffer.from([version]), timestamp, iv, ciphertext]);
  const mac = createHmac('sha256', signingKey).update(body).digest();
  // Python's urlsafe_b64encode keeps the `=` padding; Node's 'base64url' would drop it.
  return Buffer.concat([body, mac]).toString('base64').replaceAll('+', '-').replaceAll('/', '_');
}

/**
 * Decrypts a Fernet token made with `key` (32 raw bytes) and returns the UTF-8 plaintext. Tokens never expire
 * here, as in the reference (which decrypts without a TTL). Throws `SecretDecryptionError` when the token is
 * malformed, signed with another key, or its plaintext is not UTF-8.
 */
export function fernetDecrypt(key: Uint8Array, token: string): string {
  const { signingKey, encryptionKey } = splitKey(key);
  if (!base64UrlPattern.test(token)) throw new SecretDecryptionError('the token is not URL-safe base64');
  const data = Buffer.from(token, 'base64url');
  const ciphertextLength = data.length - headerLength - macLength;
  if (data[0] !== version) throw new SecretDecryptionError('the token does not start with the Fernet version byte');
  if (ciphertextLength < blockLength || ciphertextLength % blockLength !== 0) {
    throw new SecretDecryptionError('the token has the wrong length');
  }
  const body = data.subarray(0, data.length - macLength);
  const expected = createHmac('sha256', signingKey).update(body).digest();
  if (!timingSafeEqual(expected, data.subarray(data.length - macLength))) {
    throw new SecretDecryptionError('the signature does not match (another key, or a modified token)');
  }
  const iv = data.subarray(9, headerLength);
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv('aes-128-cbc', encryptionKey, iv);
    plaintext = Buffer.concat([decipher.update(body.subarray(headerLength)), decipher.final()]);
  } catch (error) {
    throw new SecretDecryptionError('the padding is invalid', { cause: error });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  } catch (error) {
    throw new SecretDecryptionError('the plaintext is not UTF-8', { cause: error });
  }
}

function splitKey(key: Uint8Array): { signingKey: Buffer; encryptionKey: Buffer } {
  if (key.length !== 32) throw new InvalidSecretKeyError(`a Fernet key must be 32 bytes, got ${key.length}`);
  const bytes = Buffer.from(key);
  return { signingKey: bytes.subarray(0, 16), encryptionKey: bytes.subarray(16) };
}
