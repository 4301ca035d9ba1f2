import { ServerError } from '../../errors.js';

/** The agent card's signing key cannot be used: unreadable, not PEM, or not an Ed25519 private key. */
export class SigningKeyError extends ServerError {
  declare readonly code: 'invalid_signing_key';

  constructor(path: string, reason: string, options: { cause?: unknown } = {}) {
    super('invalid_signing_key', `The A2A card signing key ${path} cannot be used: ${reason}`, options);
  }
}
