// The fold takes a stats update `recordResponse` built from validated parts as it is, without parsing it again:
// the state it reaches must be the one a fold of the same events read back from JSON reaches (a resume), byte
// for byte, and an update with a value the schema refuses must still be ignored by the live fold, as before.
import { type AnyEvent, parseEventJson, serializeEvent } from '@x/events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LLM, LLMResponse } from '../llm/llm.js';
import { tokenUsageSchema } from '../llm/metrics.js';
import { applyEvent } from '../state/apply-event.js';
import { type ConversationState, initialConversationState } from '../state/conversation-state.js';
import { isTokenUsage, recordResponse } from './record-response.js';

const llm = { usageId: 'agent', model: 'offline' } as LLM;

function response(index: number, usage: Record<string, unknown> | null, cost = 0.001): LLMResponse {
  return { id: `resp-${index}`, usage, cost, latencySeconds: 0.01 } as unknown as LLMResponse;
}

const usage = (prompt: number, completion: number) => ({
  model: 'offline',
  prompt_tokens: prompt,
  completion_tokens: completion,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  context_window: 8192,
  per_turn_token: 0,
  response_id: '',
});

/** Records the responses into a live fold; returns its state and the events written. */
async function live(responses: readonly LLMResponse[]): Promise<{ state: ConversationState; events: AnyEvent[] }> {
  let state = initialConversationState({ id: 'c' });
  const events: AnyEvent[] = [];
  const sink = {
    latestStats: () => state.stats,
    hold: () => undefined,
    emit: async (event: AnyEvent) => {
      events.push(event);
      state = applyEvent(state, event);
    },
  };
  for (const each of responses) await recordResponse(sink, { llm, response: each, hold: false });
  return { state, events };
}

function resumed(events: readonly AnyEvent[]): ConversationState {
  return events
    .map((event) => parseEventJson(serializeEvent(event)))
    .reduce(applyEvent, initialConversationState({ id: 'c' }));
}

describe('stats updates recorded by the conversation', () => {
  it('fold to the state a resume folds them to, byte for byte', async () => {
    const { state, events } = await live(Array.from({ length: 30 }, (_, index) => response(index, usage(100, index))));
    expect(events).toHaveLength(30);
    expect(JSON.stringify(state.stats)).toBe(JSON.stringify(resumed(events).stats));
    expect(state.stats.usage_to_metrics.agent?.accumulated_token_usage.completion_tokens).toBe(435);
  });

  it('are still ignored by the fold when the schema refuses them (a negative token count, an infinite cost)', async () => {
    const { state: before } = await live([response(0, usage(10, 1))]);
    for (const bad of [response(1, usage(-5, 1)), response(1, usage(10, 1), Number.POSITIVE_INFINITY)]) {
      const { state, events } = await live([response(0, usage(10, 1)), bad]);
      expect(events).toHaveLength(2);
      expect(state.stats).toEqual(before.stats);
    }
  });
});

describe('isTokenUsage', () => {
  it('answers as tokenUsageSchema.safeParse does', () => {
    const field = fc.oneof(
      fc.constantFrom(null, undefined, 0, -0, 1, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 2 ** 53 - 1),
      fc.integer({ min: -5, max: 1_000_000 }),
      fc.double(),
      fc.string({ maxLength: 3 }),
      fc.boolean(),
      fc.constant({}),
      fc.constant([]),
    );
    const keys = ['model', 'prompt_tokens', 'completion_tokens', 'cache_read_tokens', 'cache_write_tokens'];
    const usageValue = fc.oneof(
      fc.record(
        Object.fromEntries(
          [...keys, 'reasoning_tokens', 'context_window', 'per_turn_token', 'response_id'].map((key) => [key, field]),
        ),
        {
          requiredKeys: [],
        },
      ),
      // Mostly valid, so both answers are checked often.
      fc.record(
        {
          model: fc.option(fc.string({ maxLength: 3 })),
          prompt_tokens: fc.option(fc.nat()),
          completion_tokens: fc.nat(),
          per_turn_token: fc.oneof(fc.nat(), field),
        },
        { requiredKeys: [] },
      ),
      fc.constantFrom(null, undefined, 1, 'usage', [], [1]),
    );
    let valid = 0;
    fc.assert(
      fc.property(usageValue, (value) => {
        const success = tokenUsageSchema.safeParse(value).success;
        if (success) valid++;
        expect(isTokenUsage(value)).toBe(success);
      }),
      { numRuns: 3_000 },
    );
    expect(valid).toBeGreaterThan(300);
  });
});
