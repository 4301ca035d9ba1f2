import { describe, expect, it } from 'vitest';
import { StoreError } from '../errors.js';
import { AppendConflictError } from './append-conflict-error.js';
import { CorruptEventError } from './corrupt-event-error.js';
import { DamagedSegmentError } from './damaged-segment-error.js';
import { DuplicateEventIdError } from './duplicate-event-id-error.js';
import { EventIndexOutOfRangeError } from './event-index-out-of-range-error.js';
import { InvalidEventIdError } from './invalid-event-id-error.js';
import { ReadOnlyLogError } from './read-only-log-error.js';
import { UnknownEventIdError } from './unknown-event-id-error.js';

describe('EventLog errors', () => {
  it('are StoreErrors with a code, a name, and a message that names what was wrong', () => {
    const cause = new Error('Unexpected end of JSON input');
    const cases: [StoreError, string, string][] = [
      [
        new CorruptEventError({ location: '/x/events/event-00002-ab.json', problem: 'not JSON', cause }),
        'corrupt_event',
        '/x/events/event-00002-ab.json: not JSON',
      ],
      [new DuplicateEventIdError('abc', 3), 'duplicate_event_id', "Event with ID 'abc' already exists at index 3"],
      [
        new AppendConflictError({ eventId: 'abc', expectedIndex: 4, actualIndex: 6 }),
        'append_conflict',
        'expected index 4 but the next free index is 6',
      ],
      [new EventIndexOutOfRangeError(-9, 2), 'event_index_out_of_range', 'Event index out of range: -9'],
      [new UnknownEventIdError('nope'), 'unknown_event_id', 'Unknown event_id: nope'],
      [new InvalidEventIdError('a/b'), 'invalid_event_id', '"a/b" cannot be stored'],
      [
        new DamagedSegmentError({
          location: '/x/events/.slots/segment',
          offset: 40,
          end: 90,
          missingIndex: 2,
          nextIntact: 3,
        }),
        'damaged_segment',
        '/x/events/.slots/segment: bytes 40…89 are not an intact record, yet intact records follow (from event 3); event 2',
      ],
      [
        new DamagedSegmentError({
          location: '/x/events/.slots/segment',
          offset: 40,
          end: 90,
          missingIndex: 2,
          nextIntact: 4,
          unrecovered: [2, 3],
        }),
        'damaged_segment',
        'could not restore events 2, 3: missing, or not what the hash chain says',
      ],
      [
        new ReadOnlyLogError({ location: '/x/events', length: 2 }),
        'read_only_log',
        "The log /x/events is read-only: its segment is damaged and it was opened with { damagedSegment: 'read-intact-prefix' }, holding only the 2 events",
      ],
    ];
    for (const [error, code, text] of cases) {
      expect(StoreError.isInstance(error)).toBe(true);
      expect(error.code).toBe(code);
      expect(error.name).toBe(error.constructor.name);
      expect(error.message).toContain(text);
    }
    expect(cases[0]?.[0].cause).toBe(cause);
  });
});
