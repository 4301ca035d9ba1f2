import { StoreError } from '../errors.js';

/** An event file (or slot claim) exists but its content is not a valid event. Other events stay readable. */
export class CorruptEventError extends StoreError {
  declare readonly code: 'corrupt_event';
  /** Where the bad file is, as `FileStore.describe` renders it. */
  readonly location: string;
  /** What was wrong with the content. */
  readonly problem: string;

  constructor(options: { location: string; problem: string; cause?: unknown }) {
    super('corrupt_event', `Corrupt event file ${options.location}: ${options.problem}`, { cause: options.cause });
    this.location = options.location;
    this.problem = options.problem;
  }
}
