// What the fold does at the edges the other tests leave: HEAD after an emptied HEAD, state updates kept opaque (which
// are not nodes of the tree), a rejection among actions whose call ids repeat, and an observation that arrives while
// a confirmation is awaited.
import { type AnyEvent, createEvent, type OpaqueEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { applyEvent } from './apply-event.js';
import { type ConversationState, initialConversationState } from './conversation-state.js';

const fold = (events: readonly AnyEvent[], from: Partial<ConversationState> = {}): ConversationState =>
  events.reduce(applyEvent, { ...initialConversationState({ id: 'edges' }), ...from });

const userMessage = () =>
  createEvent('MessageEvent', {
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
  });
const action = (responseId: string, callId: string) =>
  createEvent('ActionEvent', {
    thought: [],
    action: { kind: 'TerminalAction', command: 'ls' },
    tool_name: 'terminal',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'terminal', arguments: '{}', origin: 'completion' },
    llm_response_id: responseId,
  });
const opaque = (kind: string): OpaqueEvent => ({
  kind: 'OpaqueEvent',
  opaque_kind: kind,
  id: `opaque-${kind}`,
  timestamp: '2026-01-01T00:00:00.000000',
  json: { kind, id: `opaque-${kind}` },
});

describe('applyEvent at the edges', () => {
  it('ends an empty HEAD with the next event, but not with a state update', () => {
    const message = userMessage();
    const afterMessage = fold([message], { head_is_empty: true });
    expect(afterMessage).toMatchObject({ head_is_empty: false, leaf_event_id: message.id });
    const afterUpdate = fold([createEvent('ConversationStateUpdateEvent', { key: 'title', value: 'T' })], {
      head_is_empty: true,
    });
    expect(afterUpdate).toMatchObject({ head_is_empty: true, title: 'T' });
    expect(afterUpdate).not.toHaveProperty('leaf_event_id');
  });

  it('leaves HEAD on a state update kept opaque, and moves it on any other event of a kind it does not know', () => {
    const message = userMessage();
    const stateUpdate = opaque('ConversationStateUpdateEvent');
    expect(fold([message, stateUpdate])).toMatchObject({ leaf_event_id: message.id, event_count: 2 });
    const unknown = opaque('FutureEvent');
    expect(fold([message, unknown])).toMatchObject({ leaf_event_id: unknown.id, event_count: 2 });
  });

  it('answers by a rejection the action it names only, when another pending action reuses its call id', () => {
    // Some models number their calls per response (call_0, call_1, ...): ids repeat across responses.
    const earlier = action('r1', 'call_0');
    const later = action('r2', 'call_0');
    const rejection = createEvent('UserRejectObservation', {
      tool_name: 'terminal',
      tool_call_id: 'call_0',
      action_id: later.id,
      rejection_reason: 'not this one',
    });
    const state = fold([earlier, later, rejection]);
    expect(state.pending_actions.map((pending) => pending.action_id)).toEqual([earlier.id]);
  });

  it('keeps waiting for a confirmation when an observation of another action arrives', () => {
    const done = action('r1', 'call_1');
    const observation = createEvent('ObservationEvent', {
      tool_name: 'terminal',
      tool_call_id: done.tool_call_id,
      action_id: done.id,
      observation: { content: [], kind: 'TerminalObservation' },
    } as never);
    const state = fold([done, observation], { execution_status: 'waiting_for_confirmation' });
    expect(state).toMatchObject({ execution_status: 'waiting_for_confirmation', pending_actions: [] });
  });
});
