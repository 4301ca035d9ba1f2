// The token totals a response's usage is computed from, read from a conversation's stats as they were stored: a
// conversation continued by its header may have been written by another server or version, so a count that is missing
// or not a finite number adds nothing (and never poisons the sum with NaN), and stats with no per-model metrics are
// zeros rather than a failed request.
import { describe, expect, it } from 'vitest';
import { usageTotalsOf } from '../../src/faces/openai/response-object.js';

const ZERO = {
  input_tokens: 0,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 0,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 0,
};

const statsOf = (...usages: unknown[]) => ({
  usage_to_metrics: Object.fromEntries(
    usages.map((usage, index) => [`model${index}`, { accumulated_token_usage: usage }]),
  ),
});

describe('usageTotalsOf', () => {
  it('counts a missing field as none', () => {
    expect(usageTotalsOf(statsOf({ prompt_tokens: 7 }, { completion_tokens: 2 }))).toEqual({
      ...ZERO,
      input_tokens: 7,
      output_tokens: 2,
      total_tokens: 9,
    });
  });

  it('counts a field that is not a finite number as none', () => {
    const usage = usageTotalsOf(
      statsOf(
        { prompt_tokens: Number.NaN, completion_tokens: Number.POSITIVE_INFINITY, cache_read_tokens: '3' },
        { prompt_tokens: 4, completion_tokens: 1, cache_read_tokens: 2, reasoning_tokens: null },
      ),
    );
    expect(usage).toEqual({
      input_tokens: 4,
      input_tokens_details: { cached_tokens: 2 },
      output_tokens: 1,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 5,
    });
  });

  it.each([
    ['no stats', undefined],
    ['null stats', null],
    ['stats without metrics', {}],
    ['null metrics', { usage_to_metrics: null }],
    ['metrics that are not an object', { usage_to_metrics: 12 }],
    ['a model without token usage', { usage_to_metrics: { model: null } }],
  ])('is zeros for %s', (_name, stats) => {
    expect(usageTotalsOf(stats)).toEqual(ZERO);
  });
});
