import { AgentError } from '../../errors.js';

/**
 * A patch that cannot be applied: malformed (`*** Begin Patch` missing, an unknown line), or not matching the files
 * (a context that is not found, a file to update that does not exist). The reference's `DiffError`; its message is
 * what the model sees in the error observation.
 */
export class PatchError extends AgentError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('patch', message, options);
  }
}
