import { describe, expect, it } from 'vitest';
import { viewCheckpointSchema } from './view-checkpoint-file.js';

const file = (entries: unknown) => ({
  version: 1,
  event_count: 10,
  last_event_id: 'e9',
  leaf_event_id: 'e9',
  head_is_empty: false,
  unhandled_condensation_request: false,
  entries,
});

describe('viewCheckpointSchema', () => {
  it('accepts runs and summaries', () => {
    const entries = [[0, 2], { summary_of: 3 }, [4, 10]];
    expect(viewCheckpointSchema.parse(file(entries)).entries).toEqual(entries);
  });

  it.each([
    ['not an array', { 0: [0, 1] }],
    ['a run of one index', [[0]]],
    ['a run of three', [[0, 1, 2]]],
    ['a negative index', [[-1, 2]]],
    ['a fractional index', [[0.5, 2]]],
    ['a string index', [['0', 2]]],
    ['a summary without an index', [{ summary: 3 }]],
    ['a negative summary', [{ summary_of: -1 }]],
    ['null', [null]],
  ])('rejects entries with %s', (_, entries) => {
    expect(viewCheckpointSchema.safeParse(file(entries)).success).toBe(false);
  });
});
