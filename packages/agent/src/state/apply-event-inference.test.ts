// What the fold infers from events alone, as it must for logs the reference's standalone SDK wrote (they carry no
// ConversationStateUpdateEvent): the status each event implies, the pending actions, the iteration count, the task
// list and invoked skills; and how the recorded state updates are taken or ignored.
import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { applyEvent } from './apply-event.js';
import { type ConversationState, initialConversationState } from './conversation-state.js';
import type { ExecutionStatus } from './execution-status.js';

const fold = (events: readonly AnyEvent[], from: Partial<ConversationState> = {}): ConversationState =>
  events.reduce(applyEvent, { ...initialConversationState({ id: 'inference' }), ...from });

const userMessage = (text = 'hello') =>
  createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } });

const agentMessage = (text: string, responseId: string | undefined, toolCalls = false) =>
  createEvent('MessageEvent', {
    source: 'agent',
    llm_message: {
      role: 'assistant',
      content: [{ type: 'text', text }],
      ...(toolCalls ? { tool_calls: [{ id: 'c', name: 'terminal', arguments: '{}', origin: 'completion' }] } : {}),
    },
    ...(responseId === undefined ? {} : { llm_response_id: responseId }),
  });

let calls = 0;
const action = (responseId = 'r1', withAction = true) => {
  calls += 1;
  const id = `call_${calls}`;
  return createEvent('ActionEvent', {
    thought: [],
    ...(withAction ? { action: { kind: 'TerminalAction', command: 'ls' } } : {}),
    tool_name: 'terminal',
    tool_call_id: id,
    tool_call: { id, name: 'terminal', arguments: '{}', origin: 'completion' },
    llm_response_id: responseId,
  });
};

const observation = (answered: { id: string; tool_call_id: string }, body: Record<string, unknown>) =>
  createEvent('ObservationEvent', {
    tool_name: 'terminal',
    tool_call_id: answered.tool_call_id,
    action_id: answered.id,
    observation: { content: [], kind: 'TerminalObservation', ...body },
  } as never);

const statusAfter = (event: AnyEvent, from: ExecutionStatus) =>
  fold([event], { execution_status: from }).execution_status;

describe('the fold of a log without state updates (the reference standalone SDK)', () => {
  it('takes a user message as the last one, and as a restart of a finished or stuck conversation only', () => {
    const message = userMessage();
    expect(fold([message]).last_user_message_id).toBe(message.id);
    expect(statusAfter(message, 'finished')).toBe('idle');
    expect(statusAfter(message, 'stuck')).toBe('idle');
    for (const status of ['idle', 'paused', 'running', 'error', 'waiting_for_confirmation'] as const)
      expect(statusAfter(message, status)).toBe(status);
    // The agent's messages are not the user's.
    expect(fold([agentMessage('hi', 'r1')]).last_user_message_id).toBeUndefined();
  });

  it("finishes on the model's plain answer, counts one iteration per response, and ignores the rest", () => {
    const answered = fold([agentMessage('done', 'r1')], { execution_status: 'running' });
    expect(answered).toMatchObject({ execution_status: 'finished', iteration: 1, last_llm_response_id: 'r1' });
    // An answer that calls tools, an empty answer, or a message no model response made does not finish.
    expect(statusAfter(agentMessage('calling', 'r1', true), 'running')).toBe('running');
    expect(statusAfter(agentMessage('   ', 'r1'), 'running')).toBe('running');
    expect(fold([agentMessage('note', undefined)], { execution_status: 'running' })).toMatchObject({
      execution_status: 'running',
      iteration: 0,
    });
    // A response's message and its actions are one iteration; the next response another.
    const twoResponses = fold([agentMessage('thinking', 'r1', true), action('r1'), action('r1'), action('r2')]);
    expect(twoResponses).toMatchObject({ iteration: 2, last_llm_response_id: 'r2' });
  });

  it('keeps pending actions until answered, by their own id (observations, rejections) or tool call (errors)', () => {
    const [first, second, third] = [action(), action(), action()];
    const pending = fold([first, second, third]);
    expect(pending.pending_actions.map((p) => p.action_id)).toEqual([first.id, second.id, third.id]);
    expect(pending.pending_actions[0]).toEqual({
      action_id: first.id,
      tool_call_id: first.tool_call_id,
      tool_name: 'terminal',
    });
    const answered = [
      observation(second, {}),
      createEvent('UserRejectObservation', {
        tool_name: 'terminal',
        tool_call_id: first.tool_call_id,
        action_id: first.id,
        rejection_reason: 'no',
      }),
    ].reduce(applyEvent, pending);
    expect(answered.pending_actions.map((p) => p.action_id)).toEqual([third.id]);
    const toolError = createEvent('AgentErrorEvent', {
      tool_name: 'terminal',
      tool_call_id: third.tool_call_id,
      error: 'boom',
    });
    const errored = applyEvent(answered, toolError);
    expect(errored.pending_actions).toEqual([]);
    // A tool's error is the model's to answer: the run goes on.
    expect(statusAfter(toolError, 'running')).toBe('running');
    // A call the model made to no tool (no action) waits for nothing.
    expect(fold([action('r1', false)]).pending_actions).toEqual([]);
  });

  it('runs an idle conversation on an action, and keeps a pause asked while the model answered', () => {
    expect(statusAfter(action(), 'idle')).toBe('running');
    expect(statusAfter(action(), 'paused')).toBe('paused');
    expect(statusAfter(action(), 'waiting_for_confirmation')).toBe('waiting_for_confirmation');
  });

  it('finishes on a finish observation, takes a task list, records invoked skills once', () => {
    const call = action();
    expect(
      fold([call, observation(call, { kind: 'FinishObservation' })], { execution_status: 'running' }).execution_status,
    ).toBe('finished');
    const tasks = [{ title: 'write tests', notes: '', status: 'todo' }];
    expect(fold([observation(call, { kind: 'TaskTrackerObservation', task_list: tasks })]).task_list).toEqual(tasks);
    // A malformed task list leaves the previous one.
    const before = fold([observation(call, { kind: 'TaskTrackerObservation', task_list: tasks })]);
    const malformed = observation(call, { kind: 'TaskTrackerObservation', task_list: 'x' });
    expect(applyEvent(before, malformed).task_list).toEqual(tasks);
    const skill = (name: unknown, isError = false) =>
      observation(call, { kind: 'InvokeSkillObservation', skill_name: name, is_error: isError });
    expect(fold([skill('deploy'), skill('deploy'), skill('review')]).invoked_skills).toEqual(['deploy', 'review']);
    expect(fold([skill('deploy', true), skill('')]).invoked_skills ?? []).toEqual([]);
  });

  it('pauses an idle or running conversation on a pause, errs on a conversation error', () => {
    const pause = createEvent('PauseEvent', {});
    expect(statusAfter(pause, 'idle')).toBe('paused');
    expect(statusAfter(pause, 'running')).toBe('paused');
    expect(statusAfter(pause, 'finished')).toBe('finished');
    const rejection = createEvent('UserRejectObservation', {
      tool_name: 'terminal',
      tool_call_id: 'c',
      action_id: 'a',
      rejection_reason: 'no',
    });
    expect(statusAfter(rejection, 'waiting_for_confirmation')).toBe('idle');
    expect(statusAfter(rejection, 'running')).toBe('running');
    const error = createEvent('ConversationErrorEvent', { source: 'environment', code: 'E', detail: 'd' });
    expect(statusAfter(error, 'running')).toBe('error');
  });
});

describe('recorded state updates', () => {
  const update = (key: string, value: unknown) => createEvent('ConversationStateUpdateEvent', { key, value } as never);

  it('takes a full_state object field by field, and ignores one that is not an object', () => {
    const state = fold([update('full_state', { execution_status: 'paused', title: 'T', unknown_field: 1 })]);
    expect(state).toMatchObject({ execution_status: 'paused', title: 'T' });
    expect(state).not.toHaveProperty('unknown_field');
    expect(fold([update('full_state', 'paused')], { execution_status: 'running' }).execution_status).toBe('running');
  });

  it('merges session state and artifact deltas, and ignores deltas that are not objects', () => {
    const state = fold([
      update('state_delta', { plan: 'a', draft: 'x' }),
      update('state_delta', { draft: null, step: 2 }),
      update('state_delta', 'not a delta'),
      update('artifact_delta', { 'report.md': 1 }),
      update('artifact_delta', { 'report.md': 3, 'data.csv': 1 }),
      update('artifact_delta', ['report.md']),
    ]);
    expect(state.session_state).toEqual({ plan: 'a', step: 2 });
    expect(state.artifacts).toEqual({ 'report.md': 3, 'data.csv': 1 });
  });

  it('keeps the last 20 nudged error ids, only strings', () => {
    const ids = Array.from({ length: 22 }, (_, index) => `e${index}`);
    const state = fold([...ids.map((id) => update('nudged_error_id', id)), update('nudged_error_id', 7)]);
    expect(state.nudged_error_ids).toEqual(ids.slice(2));
  });

  it('ignores an unknown key and a malformed value, and leaves HEAD where it was', () => {
    const message = userMessage();
    const state = fold([message, update('no_such_key', 1), update('execution_status', 'dancing')], {
      execution_status: 'running',
    });
    expect(state).toMatchObject({ execution_status: 'running', leaf_event_id: message.id, event_count: 3 });
    expect(state).not.toHaveProperty('no_such_key');
  });
});
