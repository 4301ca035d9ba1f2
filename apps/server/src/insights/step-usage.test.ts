import { emptyMetrics, type Metrics } from '@x/agent';
import { describe, expect, it } from 'vitest';
import { stepUsage } from './step-usage.js';

function usage(responseId: string, prompt: number, completion: number) {
  return {
    model: 'm',
    prompt_tokens: prompt,
    completion_tokens: completion,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    context_window: 0,
    per_turn_token: prompt + completion,
    response_id: responseId,
  };
}

function metrics(extra: Partial<Metrics>): Metrics {
  return { ...emptyMetrics('gpt-4o'), ...extra };
}

describe('stepUsage', () => {
  it('gives one row per response with its tokens and its cost, in order, across usage ids', () => {
    const rows = stepUsage({
      agent: metrics({
        response_latencies: [
          { model: 'gpt-4o', latency: 1.5, response_id: 'r1' },
          { model: 'gpt-4o', latency: 0.5, response_id: 'r2' },
        ],
        token_usages: [usage('r1', 1000, 200), usage('r2', 3000, 50)],
        costs: [
          { model: 'gpt-4o', cost: 0.0045, timestamp: 1 },
          { model: 'gpt-4o', cost: 0.008, timestamp: 2 },
        ],
      }),
      title: metrics({ response_latencies: [{ model: 'mini', latency: 0.1, response_id: 't1' }] }),
    });
    expect(rows).toMatchObject([
      { step: 1, usage_id: 'agent', response_id: 'r1', prompt_tokens: 1000, completion_tokens: 200, cost: 0.0045 },
      { step: 2, usage_id: 'agent', response_id: 'r2', prompt_tokens: 3000, completion_tokens: 50, cost: 0.008 },
      { step: 3, usage_id: 'title', model: 'mini', prompt_tokens: 0, completion_tokens: 0, cost: 0 },
    ]);
  });

  it('matches costs to the responses that counted tokens, and says null when they cannot be matched', () => {
    const latencies = ['r1', 'r2', 'r3'].map((id) => ({ model: 'm', latency: 1, response_id: id }));
    const matched = stepUsage({
      agent: metrics({
        response_latencies: latencies,
        token_usages: [usage('r1', 10, 5), usage('r3', 20, 5)],
        costs: [
          { model: 'm', cost: 0.1, timestamp: 1 },
          { model: 'm', cost: 0.3, timestamp: 3 },
        ],
      }),
    });
    expect(matched.map((row) => row.cost)).toEqual([0.1, 0, 0.3]);
    const ambiguous = stepUsage({
      agent: metrics({ response_latencies: latencies, costs: [{ model: 'm', cost: 0.1, timestamp: 1 }] }),
    });
    expect(ambiguous.map((row) => row.cost)).toEqual([null, null, null]);
  });
});
