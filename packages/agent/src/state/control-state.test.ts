import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { applyEvent } from './apply-event.js';
import { initialConversationState } from './conversation-state.js';

const update = (key: string, value: unknown) => createEvent('ConversationStateUpdateEvent', { key, value });

describe('active_agent and escalation in the fold', () => {
  it('folds the agent in control and the last escalation (with the index of its event)', () => {
    let state = initialConversationState({ id: 'c' });
    state = applyEvent(state, update('active_agent', { name: 'billing', reason: 'refund' }));
    state = applyEvent(state, update('title', 'x'));
    state = applyEvent(state, update('escalation', { reason: 'needs a human', agent: 'worker' }));
    expect(state.active_agent).toEqual({ name: 'billing', reason: 'refund' });
    expect(state.escalation).toEqual({ reason: 'needs a human', agent: 'worker', event_index: 2 });
  });

  it('ignores malformed values rather than breaking the fold', () => {
    let state = initialConversationState({ id: 'c' });
    state = applyEvent(state, update('active_agent', { name: '' }));
    state = applyEvent(state, update('escalation', { why: 'no reason field' }));
    expect(state.active_agent).toBeUndefined();
    expect(state.escalation).toBeUndefined();
    expect(state.event_count).toBe(2);
  });
});
