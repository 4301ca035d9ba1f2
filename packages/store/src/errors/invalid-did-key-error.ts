import { StoreError } from '../errors.js';

/** A `did:key` that does not name an Ed25519 public key, or a key that is not Ed25519. */
export class InvalidDidKeyError extends StoreError {
  declare readonly code: 'invalid_did_key';

  constructor(message: string) {
    super('invalid_did_key', message);
  }
}
