import { StoreError } from '../errors.js';

/** A signing key that is not an Ed25519 private key. */
export class InvalidSigningKeyError extends StoreError {
  declare readonly code: 'invalid_signing_key';

  constructor(message: string) {
    super('invalid_signing_key', message);
  }
}
