import type { ActionEvent } from '@x/events';
import { arbitraryEvent } from '@x/events/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEvent } from './apply-event.js';
import { conversationStateSchema, initialConversationState } from './conversation-state.js';
import { stateAt } from './state-at.js';
import { isValidatedStats } from './validated-stats.js';

const events = fc.array(arbitraryEvent(), { maxLength: 40 });

describe('derived conversation state', () => {
  it('starts from empty stats marked as their own parse (the fold takes updates built from them as they are)', () => {
    const { stats } = initialConversationState({ id: 'c' });
    expect(isValidatedStats(stats)).toBe(true);
    expect(JSON.stringify(conversationStateSchema.shape.stats.parse(stats))).toBe(JSON.stringify(stats));
    // Each state gets its own snapshot: marking is by identity, and a caller may change its state.
    expect(initialConversationState({ id: 'c' }).stats).not.toBe(stats);
  });

  it('is a pure function of the events: the same events always give the same state', async () => {
    await fc.assert(
      fc.asyncProperty(events, async (list) => {
        expect(await stateAt('c', list)).toEqual(await stateAt('c', [...list]));
      }),
      { numRuns: 100 },
    );
  });

  it('resuming from a checkpoint (the JSON of the state at k) gives the state of a full fold', async () => {
    await fc.assert(
      fc.asyncProperty(events, fc.nat(), async (list, cut) => {
        const k = list.length === 0 ? 0 : cut % (list.length + 1);
        const checkpoint = conversationStateSchema.parse(JSON.parse(JSON.stringify(await stateAt('c', list, k))));
        const resumed = list.slice(k).reduce(applyEvent, checkpoint);
        expect(resumed).toEqual(await stateAt('c', list));
      }),
      { numRuns: 100 },
    );
  });

  it('counts every event and never leaves a pending action once it is answered', () => {
    let state = initialConversationState({ id: 'c' });
    const action: ActionEvent = {
      id: 'a1',
      timestamp: 't',
      source: 'agent',
      kind: 'ActionEvent',
      thought: [],
      thinking_blocks: [],
      action: { kind: 'ThinkAction', thought: 'x' },
      tool_name: 'think',
      tool_call_id: 'call-1',
      tool_call: { id: 'call-1', name: 'think', arguments: '{}', origin: 'completion' },
      llm_response_id: 'r1',
      security_risk: 'UNKNOWN',
    };
    state = applyEvent(state, action);
    expect(state.pending_actions).toEqual([{ action_id: 'a1', tool_call_id: 'call-1', tool_name: 'think' }]);
    expect(state.execution_status).toBe('running');
    state = applyEvent(state, {
      id: 'e1',
      timestamp: 't',
      source: 'agent',
      kind: 'AgentErrorEvent',
      tool_name: 'think',
      tool_call_id: 'call-1',
      error: 'boom',
      classification: { kind: 'internal', retryable: false, user_action: 'none' },
    });
    expect(state.pending_actions).toEqual([]);
    expect(state.event_count).toBe(2);
    expect(state.iteration).toBe(1);
  });
});
