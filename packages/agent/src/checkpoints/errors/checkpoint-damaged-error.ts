import { AgentError } from '../../errors.js';

/** A checkpoint's tree or blob is missing or does not hash to its name: restoring from it would lose data. */
export class CheckpointDamagedError extends AgentError {
  /** Where the damaged object is (as the store describes it). */
  readonly location: string;

  constructor(location: string, detail: string, options?: { cause?: unknown }) {
    super('checkpoint_damaged', `Workspace checkpoint object ${location} is damaged: ${detail}`, options);
    this.location = location;
  }
}
