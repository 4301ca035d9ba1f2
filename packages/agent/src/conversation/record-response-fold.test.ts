// A stats update is taken by the fold without parsing it again (the point of recordResponse's marking: the per-step
// stats are not parsed at every step) only when it was built from a snapshot the fold itself validated and the entry
// it changed is valid: one built from any other snapshot (a state a caller gave, whose other entries nobody checked)
// must be parsed like an update read back from the log, so the live state and a resumed fold stay the same.
import { type AnyEvent, createEvent, parseEventJson, serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import type { LLM, LLMResponse } from '../llm/llm.js';
import { applyEvent } from '../state/apply-event.js';
import { type ConversationState, initialConversationState } from '../state/conversation-state.js';
import { recordResponse } from './record-response.js';

const llm = { usageId: 'agent', model: 'offline' } as LLM;

const usage = {
  model: 'offline',
  prompt_tokens: 10,
  completion_tokens: 2,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  context_window: 8192,
  per_turn_token: 0,
  response_id: '',
};

function response(index: number, cost = 0.001): LLMResponse {
  return { id: `resp-${index}`, usage, cost, latencySeconds: 0.01 } as unknown as LLMResponse;
}

/** A state whose stats were not parsed by the fold: another usage id holds a cost the schema refuses. */
function givenState(): ConversationState {
  const state = initialConversationState({ id: 'c' });
  const condenser = { model_name: 'offline', accumulated_cost: -1, accumulated_token_usage: { ...usage } };
  return { ...state, stats: { usage_to_metrics: { condenser } } as ConversationState['stats'] };
}

async function live(
  start: ConversationState,
  count: number,
  on: LLM = llm,
  cost = 0.001,
): Promise<{ state: ConversationState; events: AnyEvent[] }> {
  let state = start;
  const events: AnyEvent[] = [];
  const sink = {
    latestStats: () => state.stats,
    hold: () => undefined,
    emit: async (event: AnyEvent) => {
      events.push(event);
      state = applyEvent(state, event);
    },
  };
  for (let index = 0; index < count; index++)
    await recordResponse(sink, { llm: on, response: response(index, cost), hold: false });
  return { state, events };
}

describe('a stats update built from stats the fold did not validate', () => {
  it('is parsed by the live fold as a resume parses it (refused here, as the resumed fold refuses it)', async () => {
    const { state, events } = await live(givenState(), 2);
    expect(events).toHaveLength(2);
    const resumed = events.map((event) => parseEventJson(serializeEvent(event))).reduce(applyEvent, givenState());
    expect(JSON.stringify(state.stats)).toBe(JSON.stringify(resumed.stats));
    // The refused updates left the given stats as they were: no entry for the agent's responses.
    expect(Object.keys(state.stats.usage_to_metrics)).toEqual(['condenser']);
  });

  it('is parsed too when the entry it changed is not valid (an LLM whose model name is no string)', async () => {
    const odd = { usageId: 'agent', model: 42 } as unknown as LLM;
    const { state, events } = await live(initialConversationState({ id: 'c' }), 2, odd);
    expect(events).toHaveLength(2);
    const resumed = events
      .map((event) => parseEventJson(serializeEvent(event)))
      .reduce(applyEvent, initialConversationState({ id: 'c' }));
    expect(JSON.stringify(state.stats)).toBe(JSON.stringify(resumed.stats));
    expect(state.stats.usage_to_metrics).toEqual({});
  });
});

describe('a stats update built from the stats the fold validated', () => {
  it('is taken by the fold as it is, not parsed again, with the state a resume reaches', async () => {
    // Stats with a budget, as a state update read from a log sets them (the fold parses that one).
    const agent = {
      model_name: 'offline',
      accumulated_cost: 0,
      max_budget_per_task: 5,
      accumulated_token_usage: usage,
    };
    const budgeted = applyEvent(
      initialConversationState({ id: 'c' }),
      parseEventJson(
        serializeEvent(
          createEvent('ConversationStateUpdateEvent', { key: 'stats', value: { usage_to_metrics: { agent } } }),
        ),
      ),
    );
    expect(budgeted.stats.usage_to_metrics.agent?.max_budget_per_task).toBe(5);
    // A model that costs nothing (the offline one) too: only its token counts change.
    const runs: [ConversationState, number][] = [
      [initialConversationState({ id: 'c' }), 0.001],
      [budgeted, 0.001],
      [initialConversationState({ id: 'c' }), 0],
    ];
    for (const [start, cost] of runs) {
      const { state, events } = await live(start, 3, llm, cost);
      expect(events).toHaveLength(3);
      // The state holds the very value of the last update: the fold did not parse (copy) it.
      expect(state.stats).toBe((events.at(-1) as { value?: unknown }).value);
      const resumed = events.map((event) => parseEventJson(serializeEvent(event))).reduce(applyEvent, start);
      expect(JSON.stringify(state.stats)).toBe(JSON.stringify(resumed.stats));
    }
  });
});
