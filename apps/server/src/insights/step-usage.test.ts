import { describe, expect, it } from 'vitest';
import { type StepEventInput, stepUsage } from './step-usage.js';

function stats(id: string, usage: Record<string, [number, number, number]>): StepEventInput {
  const usageToMetrics: Record<string, unknown> = {};
  for (const [usageId, [prompt, completion, cost]] of Object.entries(usage)) {
    usageToMetrics[usageId] = {
      model_name: `model-${usageId}`,
      accumulated_cost: cost,
      accumulated_token_usage: { prompt_tokens: prompt, completion_tokens: completion },
    };
  }
  return {
    id,
    kind: 'ConversationStateUpdateEvent',
    key: 'stats',
    value: { usage_to_metrics: usageToMetrics },
  };
}
const node = (id: string, responseId?: string): StepEventInput => ({
  id,
  kind: responseId === undefined ? 'MessageEvent' : 'ActionEvent',
  ...(responseId === undefined ? {} : { llm_response_id: responseId }),
});

describe('stepUsage', () => {
  it('gives each response the difference from the snapshot before it, with the response id after it', () => {
    const rows = stepUsage([
      node('task'),
      { id: 'status', kind: 'ConversationStateUpdateEvent', key: 'execution_status', value: 'running' },
      stats('s1', { default: [1000, 200, 0.0045] }),
      node('a1', 'r1'),
      stats('s2', { default: [4000, 250, 0.0125], title: [10, 5, 0.001] }),
      node('a2', 'r2'),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({ step: 1, usage_id: 'default', response_id: 'r1', event_id: 's1', prompt_tokens: 1000 }),
      expect.objectContaining({
        step: 2,
        usage_id: 'default',
        response_id: 'r2',
        prompt_tokens: 3000,
        completion_tokens: 50,
      }),
      expect.objectContaining({
        step: 3,
        usage_id: 'title',
        model: 'model-title',
        prompt_tokens: 10,
        completion_tokens: 5,
      }),
    ]);
    expect(rows[1]?.cost).toBeCloseTo(0.008, 12);
    expect(rows[2]?.cost).toBeCloseTo(0.001, 12);
  });

  it('takes the snapshot before in log order, across branches (stats are conversation-wide)', () => {
    const rows = stepUsage([
      node('task'),
      stats('s1', { default: [100, 10, 0.1] }),
      node('a1', 'r1'),
      stats('s2', { default: [300, 20, 0.3] }),
      node('a2', 'r2'),
      // HEAD moved back to the task: the next reply hangs from it, its figures add to s2's.
      stats('s3', { default: [450, 25, 0.45] }),
      node('b1', 'r3'),
    ]);
    expect(rows.map((row) => [row.prompt_tokens, row.completion_tokens, row.response_id])).toEqual([
      [100, 10, 'r1'],
      [200, 10, 'r2'],
      [150, 5, 'r3'],
    ]);
  });

  it('counts from zero when a figure went down (a fork that reset its metrics)', () => {
    const rows = stepUsage([node('task'), stats('s1', { default: [500, 50, 0.5] }), node('a1', 'r1')]);
    const reset = stepUsage([
      node('task'),
      stats('s1', { default: [500, 50, 0.5] }),
      node('a1', 'r1'),
      stats('s2', { default: [40, 4, 0.04] }),
      node('a2', 'r2'),
    ]);
    expect(rows).toHaveLength(1);
    expect(reset[1]).toMatchObject({ prompt_tokens: 40, completion_tokens: 4 });
  });
});
