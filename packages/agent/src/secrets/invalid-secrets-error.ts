import { AgentError } from '../errors.js';

/**
 * Thrown for secrets that cannot be registered or loaded: an empty name, a value of the wrong type, or
 * serialized secrets that do not match the `secret_sources` shape. `path` names the offending field
 * (e.g. `secret_sources.GITHUB_TOKEN.kind`); the message never contains a secret value.
 */
export class InvalidSecretsError extends AgentError {
  declare readonly code: 'invalid_secrets';
  readonly path: string;

  constructor(path: string, problem: string) {
    super('invalid_secrets', path === '' ? `invalid secrets: ${problem}` : `invalid secrets at ${path}: ${problem}`);
    this.path = path;
  }
}
