import { AgentError } from '../errors.js';

/** Thrown when a cipher key is unusable: an empty secret key, or Fernet key bytes that are not 32 bytes long. */
export class InvalidSecretKeyError extends AgentError {
  declare readonly code: 'invalid_secret_key';

  constructor(message: string) {
    super('invalid_secret_key', message);
  }
}
