// `foldBranch` and `stateAt` on a small log written by hand: two branches from one root, conversation-wide updates on
// either, and a slot that could not be read. Moving HEAD takes the branch's own pending actions, last user message,
// last response and task list, and keeps what the whole conversation holds (status, title, stats).
import { type AnyEvent, createEvent, EventTree } from '@x/events';
import { describe, expect, it } from 'vitest';
import { applyEvent } from './apply-event.js';
import { type ConversationState, initialConversationState } from './conversation-state.js';
import { foldBranch, treeOf } from './fold-branch.js';
import { stateAt } from './state-at.js';

const under = <E extends AnyEvent>(parent: AnyEvent | undefined, event: E): E =>
  ({ ...event, parent_id: parent?.id ?? '__root__' }) as E;
const userMessage = (text: string) =>
  createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } });
const action = (responseId: string, callId: string) =>
  createEvent('ActionEvent', {
    thought: [],
    action: { kind: 'TerminalAction', command: 'ls' },
    tool_name: 'terminal',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'terminal', arguments: '{}', origin: 'completion' },
    llm_response_id: responseId,
  });
const taskList = (answered: { id: string; tool_call_id: string }, title: string) =>
  createEvent('ObservationEvent', {
    tool_name: 'task_tracker',
    tool_call_id: answered.tool_call_id,
    action_id: answered.id,
    observation: { content: [], kind: 'TaskTrackerObservation', task_list: [{ title, notes: '', status: 'todo' }] },
  } as never);
const update = (key: string, value: unknown) => createEvent('ConversationStateUpdateEvent', { key, value } as never);

/** root ─ first-branch action ─ its task list;  root ─ second user message ─ its action (pending). */
function branchedLog() {
  const root = under(undefined, userMessage('start'));
  const firstAction = under(root, action('r1', 'c1'));
  const firstTasks = under(firstAction, taskList(firstAction, 'first plan'));
  const title = update('title', 'Branched');
  const secondMessage = under(root, userMessage('try again'));
  const secondAction = under(secondMessage, action('r2', 'c2'));
  const events: AnyEvent[] = [root, firstAction, firstTasks, title, secondMessage, secondAction];
  const current = events.reduce(applyEvent, initialConversationState({ id: 'branched' }));
  return { events, current, tree: EventTree.from(events), root, firstAction, firstTasks, secondMessage, secondAction };
}

const branchPart = (state: ConversationState) => ({
  leaf_event_id: state.leaf_event_id,
  head_is_empty: state.head_is_empty,
  pending_actions: state.pending_actions.map((pending) => pending.action_id),
  last_user_message_id: state.last_user_message_id,
  last_llm_response_id: state.last_llm_response_id,
  task_list: state.task_list?.map((task) => task.title),
});

describe('foldBranch', () => {
  it("takes the branch's own pending actions, last messages and task list, and keeps the conversation's title", () => {
    const log = branchedLog();
    const first = foldBranch(log.current, log.events, log.tree, log.firstTasks.id, false);
    expect(branchPart(first)).toEqual({
      leaf_event_id: log.firstTasks.id,
      head_is_empty: false,
      pending_actions: [],
      last_user_message_id: log.root.id,
      last_llm_response_id: 'r1',
      task_list: ['first plan'],
    });
    expect(first).toMatchObject({ title: 'Branched', event_count: 6, iteration: 2, execution_status: 'running' });

    // Back to the second branch: its pending action returns and the first branch's task list goes.
    const second = foldBranch(first, log.events, log.tree, log.secondAction.id, false);
    expect(branchPart(second)).toEqual({
      leaf_event_id: log.secondAction.id,
      head_is_empty: false,
      pending_actions: [log.secondAction.id],
      last_user_message_id: log.secondMessage.id,
      last_llm_response_id: 'r2',
      task_list: undefined,
    });
    expect(second).not.toHaveProperty('task_list');
    expect(second.title).toBe('Branched');
  });

  it('empties HEAD: no leaf, nothing pending, no last message, and the head marked empty', () => {
    const log = branchedLog();
    const empty = foldBranch(log.current, log.events, log.tree, undefined, true);
    expect(empty).not.toHaveProperty('leaf_event_id');
    expect(empty).not.toHaveProperty('last_user_message_id');
    expect(empty).not.toHaveProperty('last_llm_response_id');
    expect(empty).toMatchObject({ head_is_empty: true, pending_actions: [], title: 'Branched', event_count: 6 });
  });

  it('folds a branch through a slot that could not be read, linked to its neighbour', () => {
    const first = userMessage('start');
    const pending = action('r1', 'c1');
    // Legacy events (no parent_id): each one's parent is the slot before it, the unreadable one included.
    const events: (AnyEvent | undefined)[] = [first, undefined, pending];
    const ids = [first.id, 'unreadable-1', pending.id];
    const tree = treeOf(events, (index) => ids[index]!);
    expect(tree.size).toBe(3);
    expect(tree.pathToRoot(pending.id)).toEqual([0, 1, 2]);
    expect(tree.parentOf('unreadable-1')).toBe(first.id);
    const state = foldBranch(initialConversationState({ id: 'c' }), events, tree, pending.id, false);
    expect(branchPart(state)).toMatchObject({
      leaf_event_id: pending.id,
      pending_actions: [pending.id],
      last_user_message_id: first.id,
    });
  });
});

describe('stateAt', () => {
  const events = [userMessage('a'), action('r1', 'c1'), userMessage('b')];

  it('gives the state after exactly the first `count` events, from any iterable', async () => {
    expect((await stateAt('c', events, 0)).event_count).toBe(0);
    expect(await stateAt('c', events, -1)).toEqual(initialConversationState({ id: 'c' }));
    const one = await stateAt('c', events, 1);
    expect(one).toMatchObject({ event_count: 1, last_user_message_id: events[0]!.id, pending_actions: [] });
    expect(await stateAt('c', events, 2)).toMatchObject({ event_count: 2, last_user_message_id: events[0]!.id });
    async function* stream() {
      yield* events;
    }
    expect(await stateAt('c', stream(), 2)).toEqual(await stateAt('c', events, 2));
    expect(await stateAt('c', stream())).toMatchObject({ event_count: 3, last_user_message_id: events[2]!.id });
  });
});
