import { type AnyEvent, createEvent, ROOT_PARENT_ID, View, withParent } from '@x/events';
import { createMemoryFileStore, EventLog } from '@x/store';
import { describe, expect, it } from 'vitest';
import { buildViewCheckpoint, restoreView, VIEW_CHECKPOINT_FILE } from '../src/conversation/view-checkpoint/index.js';
import { applyEvent, initialConversationState } from '../src/index.js';

// A long uncondensed view is restored in pieces of the log (so the events it drops are not all held at once):
// runs of the view that cross a piece's end must come back whole, in order, and nothing else with them.

/** A history of `steps` tool steps (a stats update before each action, as recorded), then `messages` user messages. */
function history(steps: number, messages: number): AnyEvent[] {
  const events: AnyEvent[] = [];
  let parent: string = ROOT_PARENT_ID;
  const onBranch = (event: AnyEvent) => {
    events.push(withParent(event, parent));
    parent = event.id;
  };
  onBranch(createEvent('SystemPromptEvent', { system_prompt: { type: 'text', text: 'You are an agent.' }, tools: [] }));
  const user = (text: string) =>
    createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } });
  onBranch(user('Run the checks.'));
  for (let n = 0; n < steps; n++) {
    // Not on the branch (its parent is HEAD, HEAD stays): the view drops it, and it splits the view's runs.
    events.push(withParent(createEvent('ConversationStateUpdateEvent', { key: 'title', value: `step ${n}` }), parent));
    const callId = `call_${n}`;
    const action = createEvent('ActionEvent', {
      thought: [{ type: 'text', text: `Step ${n}.` }],
      action: { command: `check ${n}`, kind: 'TerminalAction' },
      tool_name: 'terminal',
      tool_call_id: callId,
      tool_call: { id: callId, name: 'terminal', arguments: '{}', origin: 'completion' },
      llm_response_id: `response-${n}`,
    });
    onBranch(action);
    onBranch(
      createEvent('ObservationEvent', {
        tool_name: 'terminal',
        tool_call_id: callId,
        action_id: action.id,
        observation: { content: [{ type: 'text', text: `output ${n}` }], is_error: false, kind: 'TerminalObservation' },
      }),
    );
  }
  // One run longer than a piece.
  for (let n = 0; n < messages; n++) onBranch(user(`message ${n}`));
  return events;
}

describe('a view checkpoint of a long uncondensed view', () => {
  it('restores the view a full rebuild gives, across the pieces it is read in', { timeout: 120_000 }, async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store, { dir: 'conversation/events' });
    const events = history(900, 1500);
    for (let start = 0; start < events.length; start += 256) await log.appendMany(events.slice(start, start + 256));
    let state = initialConversationState({ id: 'long' });
    for (const event of events) state = applyEvent(state, event);
    const expected = View.fromEvents(events);
    const checkpoint = buildViewCheckpoint(expected, state, log);
    expect(checkpoint?.entries.length).toBeGreaterThan(900);
    await store.write(`conversation/${VIEW_CHECKPOINT_FILE}`, JSON.stringify(checkpoint));

    const restored = await restoreView({ store, directory: 'conversation', log, state });
    const ids = (view: View | undefined) => view?.events.map((event) => event.id);
    expect(events.length).toBeGreaterThan(3 * 1024);
    expect(ids(restored)).toEqual(ids(expected));
    await log.close();
  });
});
