// accumulateStats builds the snapshot directly; recordResponse tells a change without writing JSON. Both are held
// to what they replaced: the snapshot of the full metrics after `recordStatsResponse`, and the comparison of the
// two snapshots' JSON text (which decides whether a stats update is recorded at all).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statsUnchanged } from '../conversation/record-response.js';
import type { LLMResponse } from '../llm/llm.js';
import {
  type ConversationStatsSnapshot,
  emptyMetrics,
  recordStatsResponse,
  statsSnapshot,
  type TokenUsage,
} from '../llm/metrics.js';
import { accumulateStats } from './accumulate-stats.js';

const count = fc.oneof(
  fc.nat({ max: 1000 }),
  fc.constantFrom(0, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, -0, -3, 0.5),
);
const tokenUsage = fc.record({
  model: fc.constantFrom('', 'm', 'offline'),
  prompt_tokens: count,
  completion_tokens: count,
  cache_read_tokens: count,
  cache_write_tokens: count,
  reasoning_tokens: count,
  context_window: count,
  per_turn_token: count,
  response_id: fc.constantFrom('', 'r'),
}) as fc.Arbitrary<TokenUsage>;
const usageId = fc.constantFrom('agent', 'condenser', 'toString', 'x');
const entry = fc
  .record({
    model_name: fc.constantFrom('default', 'offline', ''),
    accumulated_cost: fc.oneof(fc.constantFrom(0, 1e20, 0.1), fc.double({ min: 0, max: 10, noNaN: true })),
    accumulated_token_usage: tokenUsage,
    max_budget_per_task: fc.option(fc.constantFrom(0, 5), { nil: undefined }),
  })
  .map((value) => {
    if (value.max_budget_per_task === undefined) delete value.max_budget_per_task;
    return value;
  });
const stats = fc
  .dictionary(usageId, entry, { maxKeys: 3 })
  .map((usage_to_metrics) => ({ usage_to_metrics }) as ConversationStatsSnapshot);
const response = fc.record({
  id: fc.constantFrom('resp-1', 'resp-2'),
  usage: fc.option(tokenUsage, { nil: null }),
  cost: fc.oneof(fc.constantFrom(0, -1, 1e-30, 0.001, Number.NaN), fc.double({ min: 0, max: 1, noNaN: true })),
  latencySeconds: fc.constantFrom(0, 0.5),
}) as unknown as fc.Arbitrary<LLMResponse>;
const llm = fc.record({ usageId, model: fc.constantFrom('offline', 'other') });

/** What accumulateStats did before: the full metrics of every entry, one response recorded, then the snapshot. */
function reference(
  snapshot: ConversationStatsSnapshot,
  on: { usageId: string; model: string },
  given: LLMResponse,
): ConversationStatsSnapshot {
  const full = Object.fromEntries(
    Object.entries(snapshot.usage_to_metrics).map(([id, value]) => [
      id,
      { ...emptyMetrics(value.model_name), ...value },
    ]),
  );
  // Looked up as an own entry (the old code's plain lookup found Object.prototype's `toString`).
  const current = Object.hasOwn(full, on.usageId) ? full[on.usageId]! : emptyMetrics(on.model);
  return statsSnapshot(recordStatsResponse({ usage_to_metrics: { ...full, [on.usageId]: current } }, on, given));
}

const zeroUsage = { model: 'offline', prompt_tokens: 0, completion_tokens: 0, cache_read_tokens: 0 };
const nullCount = {
  stats: {
    usage_to_metrics: {
      agent: {
        model_name: 'offline',
        accumulated_cost: 0,
        accumulated_token_usage: {
          ...zeroUsage,
          prompt_tokens: Number.NaN,
          cache_write_tokens: 0,
          reasoning_tokens: 0,
          context_window: 100,
          per_turn_token: 5,
          response_id: '',
        },
      },
    },
  } as ConversationStatsSnapshot,
  response: {
    id: 'resp-1',
    usage: { ...zeroUsage, prompt_tokens: 5, cache_write_tokens: 0, reasoning_tokens: 0, context_window: 0 },
    cost: 0,
    latencySeconds: 0,
  } as unknown as LLMResponse,
};

describe('accumulateStats', () => {
  it('gives the snapshot of the full metrics with the response recorded, as JSON', () => {
    fc.assert(
      fc.property(stats, llm, response, (before, on, given) => {
        expect(JSON.stringify(accumulateStats(before, on, given))).toBe(JSON.stringify(reference(before, on, given)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('tells a change as comparing the snapshots’ JSON text would', () => {
    let changed = 0;
    let same = 0;
    fc.assert(
      fc.property(stats, llm, response, (before, on, given) => {
        const after = accumulateStats(before, on, given);
        const expected = JSON.stringify(after) === JSON.stringify(before);
        expect(statsUnchanged(before, after, on.usageId)).toBe(expected);
        if (expected) same++;
        else changed++;
      }),
      // A token count JSON writes as null stays null after a response that adds to it: no change.
      { numRuns: 3_000, examples: [[nullCount.stats, { usageId: 'agent', model: 'offline' }, nullCount.response]] },
    );
    expect(changed).toBeGreaterThan(300);
    expect(same).toBeGreaterThan(100);
  });
});
