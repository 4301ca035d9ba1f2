import { AgentError } from '../errors.js';

/** A hook configuration that cannot be used: names where (file, event type, matcher) and what was wrong. */
export class InvalidHookConfigError extends AgentError {
  readonly where: string;

  constructor(where: string, problem: string, options?: { cause?: unknown }) {
    super('invalid_hook_config', `Invalid hook configuration (${where}): ${problem}`, options);
    this.where = where;
  }
}
