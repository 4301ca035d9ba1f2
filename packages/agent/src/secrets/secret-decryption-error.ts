import { AgentError } from '../errors.js';

/**
 * Thrown when a Fernet token cannot be decrypted: it is malformed, was made with another key, or was tampered
 * with. The message says which check failed and never contains the token or any secret.
 */
export class SecretDecryptionError extends AgentError {
  declare readonly code: 'secret_decryption_failed';

  constructor(reason: string, options?: { cause?: unknown }) {
    super('secret_decryption_failed', `cannot decrypt secret token: ${reason}`, options);
  }
}
