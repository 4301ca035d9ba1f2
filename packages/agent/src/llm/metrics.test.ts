import { describe, expect, it } from 'vitest';
import {
  addTokenUsage,
  combineMetrics,
  conversationStatsSchema,
  emptyMetrics,
  emptyStats,
  emptyTokenUsage,
  metricsSchema,
  recordResponse,
  recordStatsResponse,
  statsSnapshot,
  type TokenUsage,
} from './metrics.js';

function usage(fields: Partial<TokenUsage>): TokenUsage {
  return { ...emptyTokenUsage('m'), ...fields };
}

const at = new Date('2026-01-02T03:04:05.500Z');

describe('addTokenUsage', () => {
  it('sums counts, keeps the max context window, the right per_turn_token and the left model and id', () => {
    const left = usage({
      model: 'left',
      response_id: 'r1',
      prompt_tokens: 5,
      cache_read_tokens: 1,
      context_window: 100,
      per_turn_token: 9,
    });
    const right = usage({
      model: 'right',
      response_id: 'r2',
      prompt_tokens: 7,
      reasoning_tokens: 3,
      context_window: 50,
      per_turn_token: 4,
    });
    expect(addTokenUsage(left, right)).toEqual({
      model: 'left',
      prompt_tokens: 12,
      completion_tokens: 0,
      cache_read_tokens: 1,
      cache_write_tokens: 0,
      reasoning_tokens: 3,
      context_window: 100,
      per_turn_token: 4,
      response_id: 'r1',
    });
  });
});

describe('recordResponse', () => {
  it('records latency, cost and token usage without changing the input', () => {
    const before = emptyMetrics('gpt');
    const after = recordResponse(
      before,
      {
        id: 'resp-1',
        cost: 0.25,
        latencySeconds: 1.5,
        usage: usage({ prompt_tokens: 10, completion_tokens: 2, context_window: 8000 }),
      },
      at,
    );
    expect(before).toEqual(emptyMetrics('gpt'));
    expect(after.response_latencies).toEqual([{ model: 'gpt', latency: 1.5, response_id: 'resp-1' }]);
    expect(after.costs).toEqual([{ model: 'gpt', cost: 0.25, timestamp: at.getTime() / 1000 }]);
    expect(after.accumulated_cost).toBe(0.25);
    expect(after.token_usages).toEqual([
      usage({
        model: 'gpt',
        prompt_tokens: 10,
        completion_tokens: 2,
        context_window: 8000,
        per_turn_token: 12,
        response_id: 'resp-1',
      }),
    ]);
    expect(after.accumulated_token_usage).toEqual(
      usage({
        model: 'gpt',
        prompt_tokens: 10,
        completion_tokens: 2,
        context_window: 8000,
        per_turn_token: 12,
        response_id: '',
      }),
    );
  });

  it('skips a zero cost and a usage that counts no tokens, but still records latency', () => {
    const after = recordResponse(emptyMetrics('m'), { id: 'r', cost: 0, latencySeconds: -1, usage: usage({}) });
    expect(after.costs).toEqual([]);
    expect(after.token_usages).toEqual([]);
    expect(after.response_latencies).toEqual([{ model: 'm', latency: 0, response_id: 'r' }]);
  });
});

describe('stats', () => {
  const response = (id: string, cost: number) => ({
    id,
    cost,
    latencySeconds: 1,
    usage: usage({ prompt_tokens: 3, completion_tokens: 1 }),
  });

  it('keeps the first model registered under a usage id', () => {
    let stats = recordStatsResponse(emptyStats(), { usageId: 'default', model: 'first' }, response('a', 0));
    stats = recordStatsResponse(stats, { usageId: 'default', model: 'second' }, response('b', 0));
    expect(stats.usage_to_metrics.default?.model_name).toBe('first');
    expect(stats.usage_to_metrics.default?.response_latencies).toHaveLength(2);
  });

  it('starts a usage id named like an inherited property from empty metrics', () => {
    for (const usageId of ['constructor', 'toString', 'hasOwnProperty']) {
      const stats = recordStatsResponse(emptyStats(), { usageId, model: 'm' }, response('a', 0.5));
      expect(Object.keys(stats.usage_to_metrics)).toEqual([usageId]);
      expect(conversationStatsSchema.parse(stats).usage_to_metrics[usageId]).toMatchObject({
        model_name: 'm',
        accumulated_cost: 0.5,
        costs: [{ model: 'm', cost: 0.5 }],
      });
    }
  });

  it('combines every usage id into one "default" Metrics and snapshots without the lists', () => {
    let stats = recordStatsResponse(emptyStats(), { usageId: 'agent', model: 'big' }, response('a', 0.5));
    stats = recordStatsResponse(stats, { usageId: 'condenser', model: 'small' }, response('c', 0.25));
    stats.usage_to_metrics.condenser = { ...stats.usage_to_metrics.condenser!, max_budget_per_task: 5 };

    const combined = combineMetrics(stats);
    expect(combined.model_name).toBe('default');
    expect(combined.accumulated_cost).toBe(0.75);
    expect(combined.max_budget_per_task).toBe(5);
    expect(combined.costs.map((cost) => cost.model)).toEqual(['big', 'small']);
    expect(combined.accumulated_token_usage).toMatchObject({
      model: 'default',
      prompt_tokens: 6,
      completion_tokens: 2,
    });

    const snapshot = statsSnapshot(stats);
    expect(Object.keys(snapshot.usage_to_metrics)).toEqual(['agent', 'condenser']);
    expect(snapshot.usage_to_metrics.agent).toEqual({
      model_name: 'big',
      accumulated_cost: 0.5,
      accumulated_token_usage: stats.usage_to_metrics.agent?.accumulated_token_usage,
    });
    expect(snapshot.usage_to_metrics.condenser?.max_budget_per_task).toBe(5);
  });
});

describe('metricsSchema', () => {
  it('parses the reference JSON: nulls and missing fields take their defaults', () => {
    const parsed = metricsSchema.parse({
      model_name: 'gpt-4o',
      accumulated_cost: 0.01,
      max_budget_per_task: null,
      accumulated_token_usage: null,
      costs: [{ model: 'gpt-4o', cost: 0.01, timestamp: 1767323045.5 }],
      response_latencies: [{ model: 'gpt-4o', latency: 0.8, response_id: 'chatcmpl-1' }],
      token_usages: [{ model: 'gpt-4o', prompt_tokens: 12, completion_tokens: 3, context_window: null }],
    });
    expect(parsed).not.toHaveProperty('max_budget_per_task');
    expect(parsed.accumulated_token_usage).toEqual(emptyTokenUsage('gpt-4o'));
    expect(parsed.token_usages[0]).toEqual(usage({ model: 'gpt-4o', prompt_tokens: 12, completion_tokens: 3 }));
  });

  it('round-trips recorded stats through JSON', () => {
    const stats = recordStatsResponse(
      emptyStats(),
      { usageId: 'default', model: 'm' },
      {
        id: 'r',
        cost: 0.1,
        latencySeconds: 2,
        usage: usage({ prompt_tokens: 4, completion_tokens: 4 }),
      },
    );
    expect(conversationStatsSchema.parse(JSON.parse(JSON.stringify(stats)))).toEqual(stats);
  });

  it('rejects a negative cost, naming the field', () => {
    const result = metricsSchema.safeParse({ accumulated_cost: -1 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['accumulated_cost']);
  });
});
