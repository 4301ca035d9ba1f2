import { AgentError } from '../errors.js';

/**
 * A condenser could not produce a Condensation for the view (no valid cut, too little progress, the
 * summarizing LLM failed). `RollingCondenser` turns it into "keep the view" for a SOFT requirement and
 * into a hard context reset for a HARD one.
 */
export class NoCondensationAvailableError extends AgentError {
  declare readonly code: 'no_condensation_available';

  constructor(message: string, options?: { cause?: unknown }) {
    super('no_condensation_available', message, options);
  }
}
