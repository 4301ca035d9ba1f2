import { StoreError } from '../errors.js';

/**
 * An append with `expectedIndex` found the log somewhere else: another writer took that index first
 * (or the caller's view was stale). Nothing was written; `actualIndex` is where the next event would go.
 */
export class AppendConflictError extends StoreError {
  declare readonly code: 'append_conflict';
  readonly eventId: string;
  readonly expectedIndex: number;
  readonly actualIndex: number;

  constructor(options: { eventId: string; expectedIndex: number; actualIndex: number }) {
    super(
      'append_conflict',
      `Append of event '${options.eventId}' expected index ${options.expectedIndex} but the next free index is ${options.actualIndex}`,
    );
    this.eventId = options.eventId;
    this.expectedIndex = options.expectedIndex;
    this.actualIndex = options.actualIndex;
  }
}
