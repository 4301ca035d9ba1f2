// The edges of the stats fold that the common cases pass over: a usage that counts only one side, values that are
// falsy but present (an empty model name, a zero budget), and a budget that is absent staying absent (not a key
// holding undefined) through parsing, recording, combining and snapshots.
import { describe, expect, it } from 'vitest';
import {
  combineMetrics,
  emptyMetrics,
  emptyStats,
  emptyTokenUsage,
  metricsSchema,
  metricsSnapshotSchema,
  recordResponse,
  recordSnapshotResponse,
  recordStatsResponse,
  statsSnapshot,
  type TokenUsage,
} from './metrics.js';

function usage(fields: Partial<TokenUsage>): TokenUsage {
  return { ...emptyTokenUsage('m'), ...fields };
}

describe('a usage that counts tokens on one side only', () => {
  for (const [side, fields] of [
    ['prompt', { prompt_tokens: 1 }],
    ['completion', { completion_tokens: 1 }],
  ] as const) {
    it(`is recorded when only its ${side} tokens count`, () => {
      const response = { id: 'r', cost: 0, latencySeconds: 1, usage: usage(fields) };
      const after = recordResponse(emptyMetrics('m'), response);
      expect(after.token_usages).toHaveLength(1);
      const total = (fields as Partial<TokenUsage>).prompt_tokens ?? 0;
      const completion = (fields as Partial<TokenUsage>).completion_tokens ?? 0;
      expect(after.accumulated_token_usage).toMatchObject({
        prompt_tokens: total,
        completion_tokens: completion,
        per_turn_token: total + completion,
      });
      const snapshot = recordSnapshotResponse(metricsSnapshotSchema.parse({ model_name: 'm' }), response);
      expect(snapshot.accumulated_token_usage).toEqual(after.accumulated_token_usage);
    });
  }
});

describe('parsing keeps what is present, however falsy', () => {
  it('an empty model name stays empty; a missing one and a missing cost take their defaults', () => {
    expect(metricsSchema.parse({ model_name: '' }).model_name).toBe('');
    expect(metricsSnapshotSchema.parse({ model_name: '' }).model_name).toBe('');
    expect(metricsSchema.parse({}).model_name).toBe('default');
    expect(metricsSchema.parse({ accumulated_cost: null }).accumulated_cost).toBe(0);
    expect(metricsSnapshotSchema.parse({}).accumulated_cost).toBe(0);
  });

  it('a budget, zero included, is kept; a null or missing one is no key at all', () => {
    expect(metricsSchema.parse({ max_budget_per_task: 5 }).max_budget_per_task).toBe(5);
    expect(metricsSnapshotSchema.parse({ max_budget_per_task: 0 }).max_budget_per_task).toBe(0);
    expect(Object.keys(metricsSchema.parse({ max_budget_per_task: null }))).not.toContain('max_budget_per_task');
    expect(Object.keys(metricsSnapshotSchema.parse({}))).not.toContain('max_budget_per_task');
  });
});

describe('an absent budget stays absent', () => {
  const response = { id: 'r', cost: 0.5, latencySeconds: 1, usage: usage({ prompt_tokens: 2 }) };

  it('through recordSnapshotResponse and statsSnapshot', () => {
    const snapshot = recordSnapshotResponse(metricsSnapshotSchema.parse({ model_name: 'm' }), response);
    expect(Object.keys(snapshot)).not.toContain('max_budget_per_task');
    const budgeted = recordSnapshotResponse(metricsSnapshotSchema.parse({ max_budget_per_task: 3 }), response);
    expect(budgeted.max_budget_per_task).toBe(3);

    const stats = recordStatsResponse(emptyStats(), { usageId: 'agent', model: 'm' }, response);
    expect(Object.keys(statsSnapshot(stats).usage_to_metrics.agent!)).not.toContain('max_budget_per_task');
  });
});

describe('combineMetrics', () => {
  it("keeps the first usage id's budget, a zero budget included", () => {
    const stats = emptyStats();
    stats.usage_to_metrics.agent = { ...emptyMetrics('a'), max_budget_per_task: 0 };
    stats.usage_to_metrics.condenser = { ...emptyMetrics('c'), max_budget_per_task: 5 };
    expect(combineMetrics(stats).max_budget_per_task).toBe(0);
    stats.usage_to_metrics.agent = emptyMetrics('a');
    expect(combineMetrics(stats).max_budget_per_task).toBe(5);
    delete stats.usage_to_metrics.condenser;
    expect(Object.keys(combineMetrics(stats))).not.toContain('max_budget_per_task');
  });
});
