import { AgentError } from '../../errors.js';

/** Writing to the checkpoint store failed (full disk, permissions, a store outage). */
export class CheckpointWriteError extends AgentError {
  readonly location: string;

  constructor(location: string, options: { cause: unknown }) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super('checkpoint_write_failed', `Could not write workspace checkpoint object ${location}: ${reason}`, options);
    this.location = location;
  }
}
