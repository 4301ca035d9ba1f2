// statsUnchanged compares numbers as JSON writes them (a non-finite one is `null`): a count that turns non-finite
// is a change (a number becomes null), one that stays non-finite is not. Cases the property test in
// accumulate-stats.test.ts rarely draws: every other field of the entry left as it was.
import { describe, expect, it } from 'vitest';
import { statsUnchanged } from '../conversation/record-response.js';
import type { LLMResponse } from '../llm/llm.js';
import type { ConversationStatsSnapshot, TokenUsage } from '../llm/metrics.js';
import { accumulateStats } from './accumulate-stats.js';

const llm = { usageId: 'agent', model: 'offline' };

function usage(fields: Partial<TokenUsage>): TokenUsage {
  return {
    model: 'offline',
    prompt_tokens: 0,
    completion_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    context_window: 100,
    per_turn_token: 5,
    response_id: '',
    ...fields,
  };
}

function stats(accumulated: TokenUsage): ConversationStatsSnapshot {
  return {
    usage_to_metrics: {
      agent: { model_name: 'offline', accumulated_cost: 0, accumulated_token_usage: accumulated },
    },
  };
}

/** A response of 5 prompt tokens (per turn: 5, as before) and no cost, with the given other counts. */
function response(fields: Partial<TokenUsage>): LLMResponse {
  return { id: 'r', usage: usage({ prompt_tokens: 5, ...fields }), cost: 0, latencySeconds: 0 } as LLMResponse;
}

describe('statsUnchanged with non-finite counts', () => {
  const cases: [string, TokenUsage, LLMResponse, boolean][] = [
    // The prompt count is already null in JSON; only the cache count moves, from 0 to null.
    [
      'a count that turns non-finite',
      usage({ prompt_tokens: Number.NaN }),
      response({ cache_read_tokens: Number.NaN }),
      false,
    ],
    [
      'a count that turns infinite',
      usage({ prompt_tokens: Number.NaN }),
      response({ reasoning_tokens: Number.POSITIVE_INFINITY }),
      false,
    ],
    [
      'counts that stay non-finite',
      usage({ prompt_tokens: Number.NaN, cache_read_tokens: Number.NaN }),
      response({}),
      true,
    ],
  ];
  for (const [name, before, given, unchanged] of cases) {
    it(`${name}: ${unchanged ? 'no change' : 'a change'}, as the JSON text tells`, () => {
      const previous = stats(before);
      const next = accumulateStats(previous, llm, given);
      expect(JSON.stringify(next) === JSON.stringify(previous)).toBe(unchanged);
      expect(statsUnchanged(previous, next, 'agent')).toBe(unchanged);
    });
  }
});
