import { StoreError } from '../errors.js';

/** `get(index)` (or `range`) asked for an index the log does not have. */
export class EventIndexOutOfRangeError extends StoreError {
  declare readonly code: 'event_index_out_of_range';
  readonly index: number;
  readonly length: number;

  constructor(index: number, length: number) {
    super('event_index_out_of_range', `Event index out of range: ${index} (the log holds ${length} events)`);
    this.index = index;
    this.length = length;
  }
}
