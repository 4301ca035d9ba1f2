import { type AnyEvent, parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { projectTask, TaskProjection, taskStateOf } from './task-projection.js';

const base = { timestamp: '2026-01-01T00:00:00.000000' };
const t = (text: string) => ({ cache_prompt: false, type: 'text' as const, text });

const userMessage = (id: string, text: string): AnyEvent =>
  parseEvent({ ...base, id, source: 'user', llm_message: { role: 'user', content: [t(text)] }, kind: 'MessageEvent' });
const agentMessage = (id: string, text: string): AnyEvent =>
  parseEvent({
    ...base,
    id,
    source: 'agent',
    llm_message: { role: 'assistant', content: [t(text)] },
    llm_response_id: `r-${id}`,
    kind: 'MessageEvent',
  });
const status = (id: string, value: string): AnyEvent =>
  parseEvent({
    ...base,
    id,
    source: 'environment',
    key: 'execution_status',
    value,
    kind: 'ConversationStateUpdateEvent',
  });
const action = (id: string, tool: string, args: string): AnyEvent =>
  parseEvent({
    ...base,
    id,
    source: 'agent',
    thought: [],
    action: tool === 'finish' ? { message: 'x', kind: 'FinishAction' } : { command: 'ls', kind: 'TerminalAction' },
    tool_name: tool,
    tool_call_id: `call_${id}`,
    tool_call: { id: `call_${id}`, name: tool, arguments: args, origin: 'completion' },
    llm_response_id: 'r1',
    kind: 'ActionEvent',
  });
const observation = (id: string, actionId: string, text: string, kind = 'ThinkObservation'): AnyEvent =>
  parseEvent({
    ...base,
    id,
    source: 'environment',
    tool_name: 'terminal',
    tool_call_id: `call_${actionId}`,
    action_id: actionId,
    observation: { content: [t(text)], is_error: false, kind },
    kind: 'ObservationEvent',
  });

describe('taskStateOf', () => {
  it('maps every execution status to a task state', () => {
    expect(taskStateOf('idle')).toBe('TASK_STATE_SUBMITTED');
    expect(taskStateOf('running')).toBe('TASK_STATE_WORKING');
    expect(taskStateOf('finished')).toBe('TASK_STATE_COMPLETED');
    expect(taskStateOf('waiting_for_confirmation')).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(taskStateOf('paused')).toBe('TASK_STATE_CANCELED');
    expect(taskStateOf('error')).toBe('TASK_STATE_FAILED');
    expect(taskStateOf('stuck')).toBe('TASK_STATE_FAILED');
  });
});

describe('TaskProjection', () => {
  const run = [
    userMessage('u1', 'List the files'),
    status('s1', 'running'),
    action('a1', 'terminal', '{"command":"ls"}'),
    observation('o1', 'a1', 'a.txt'),
    action('a2', 'finish', '{"message":"One file: a.txt"}'),
    observation('o2', 'a2', 'One file: a.txt', 'FinishObservation'),
  ];

  it('streams tool calls and results as working updates, then the response artifact, then completed', () => {
    const projection = new TaskProjection('task-1');
    const items = run.flatMap((event, index) => projection.apply(event, index));
    const kinds = items.map((item) =>
      'statusUpdate' in item ? item.statusUpdate.status.state : 'artifactUpdate' in item ? 'artifact' : 'task',
    );
    expect(kinds).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'TASK_STATE_WORKING',
      'artifact',
      'TASK_STATE_COMPLETED',
    ]);
    expect(items[1]).toMatchObject({
      statusUpdate: {
        taskId: 'task-1',
        contextId: 'task-1',
        metadata: { logIndex: 2 },
        status: { message: { role: 'ROLE_AGENT', parts: [{ data: { toolCall: { name: 'terminal' } } }] } },
      },
    });
    expect(items[2]).toMatchObject({
      statusUpdate: {
        status: { message: { parts: [{ data: { toolResult: { content: 'a.txt', name: 'terminal' } } }] } },
      },
    });
    expect(items[5]).toEqual({
      artifactUpdate: {
        taskId: 'task-1',
        contextId: 'task-1',
        artifact: expect.objectContaining({ artifactId: 'response', parts: [{ text: 'One file: a.txt' }] }),
        append: false,
        lastChunk: true,
      },
    });
  });

  it('builds the task: state, the response artifact, the conversation as history', () => {
    const task = projectTask('task-1', run).task();
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toEqual([expect.objectContaining({ parts: [{ text: 'One file: a.txt' }] })]);
    expect(task.history.map((message) => [message.role, message.parts])).toEqual([
      ['ROLE_USER', [{ text: 'List the files' }]],
    ]);
    expect(task.metadata).toEqual({ logLength: run.length, executionStatus: 'finished' });
    expect(projectTask('task-1', run).task({ historyLength: 0 }).history).toEqual([]);
  });

  it('takes the last agent message as the response when the agent did not call finish', () => {
    const events = [
      userMessage('u1', 'Hi'),
      status('s1', 'running'),
      agentMessage('m1', 'Hello!'),
      status('s2', 'finished'),
    ];
    expect(projectTask('t', events).task().artifacts[0]?.parts).toEqual([{ text: 'Hello!' }]);
  });

  it('keeps the last `historyLength` messages of the history, the last one alone for 1', () => {
    const events = [userMessage('u1', 'Hi'), status('s1', 'running'), agentMessage('m1', 'Hello!')];
    const texts = (historyLength?: number) =>
      projectTask('t', events)
        .task(historyLength === undefined ? {} : { historyLength })
        .history.map((message) => message.parts);
    expect(texts(1)).toEqual([[{ text: 'Hello!' }]]);
    expect(texts(2)).toEqual([[{ text: 'Hi' }], [{ text: 'Hello!' }]]);
    expect(texts(5)).toEqual(texts());
  });

  it('has no response from an earlier turn while a new one is working', () => {
    const events = [...run, userMessage('u2', 'And now?'), status('s3', 'running')];
    const task = projectTask('t', events).task();
    expect(task.status.state).toBe('TASK_STATE_WORKING');
    expect(task.artifacts).toEqual([]);
  });

  it('asks for input naming the action that waits for confirmation', () => {
    const events = [userMessage('u1', 'rm'), status('s1', 'running'), action('a1', 'terminal', '{"command":"rm x"}')];
    const task = projectTask('t', [...events, status('s2', 'waiting_for_confirmation')]).task();
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const part = task.status.message?.parts[0] as { text: string };
    expect(part.text).toContain('terminal {"command":"rm x"}');
  });

  it('fails with the conversation error as the status message', () => {
    const error = parseEvent({
      ...base,
      id: 'e1',
      source: 'environment',
      code: 'LLMError',
      detail: 'the model is down',
      kind: 'ConversationErrorEvent',
    });
    const task = projectTask('t', [
      userMessage('u1', 'x'),
      status('s1', 'running'),
      error,
      status('s2', 'error'),
    ]).task();
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(task.status.message?.parts).toEqual([{ text: expect.stringContaining('the model is down') }]);
  });

  it('streams an error logged after the change to error as a failed update carrying it', () => {
    const error = parseEvent({
      ...base,
      id: 'e1',
      source: 'environment',
      code: 'LLMError',
      detail: 'the model is down',
      kind: 'ConversationErrorEvent',
    });
    const projection = projectTask('t', [userMessage('u1', 'x'), status('s1', 'running')]);
    const failed = projection.apply(status('s2', 'error'), 2);
    expect(failed).toEqual([{ statusUpdate: expect.objectContaining({ metadata: { logIndex: 2 } }) }]);
    const [update] = projection.apply(error, 3);
    expect(update).toMatchObject({
      statusUpdate: {
        status: {
          state: 'TASK_STATE_FAILED',
          message: { parts: [{ text: expect.stringContaining('model is down') }] },
        },
        metadata: { logIndex: 3 },
      },
    });
  });

  it('keeps saying which status the task ended with when the error logged has no detail', () => {
    const error = parseEvent({
      ...base,
      id: 'e1',
      source: 'environment',
      code: 'LLMError',
      detail: '',
      kind: 'ConversationErrorEvent',
    });
    const projection = projectTask('t', [userMessage('u1', 'x'), status('s1', 'running'), status('s2', 'error')]);
    expect(projection.apply(error, 3)).toEqual([]);
    expect(projection.task().status.message?.parts).toEqual([{ text: "The conversation ended with status 'error'" }]);
  });

  it('sends a status update only when the state changes', () => {
    const projection = new TaskProjection('t');
    expect(projection.apply(status('s1', 'running'), 0)).toHaveLength(1);
    expect(projection.apply(status('s2', 'running'), 1)).toEqual([]);
    expect(projection.apply(action('a1', 'terminal', '{}'), 2)).toHaveLength(1);
    const paused = projection.apply(parseEvent({ ...base, id: 'p1', source: 'user', kind: 'PauseEvent' }), 3);
    expect(paused).toEqual([
      {
        statusUpdate: expect.objectContaining({ status: { state: 'TASK_STATE_CANCELED' }, metadata: { logIndex: 3 } }),
      },
    ]);
  });

  it('names only the calls still waiting when asking for confirmation, not those that already ran', () => {
    const task = projectTask('t', [
      userMessage('u1', 'tidy'),
      status('s1', 'running'),
      action('a1', 'terminal', '{"command":"ls"}'),
      observation('o1', 'a1', 'a b'),
      action('a2', 'terminal', '{"command":"rm a"}'),
      status('s2', 'waiting_for_confirmation'),
    ]).task();
    const part = task.status.message?.parts[0] as { text: string };
    expect(part.text).toContain('terminal {"command":"rm a"}');
    expect(part.text).not.toContain('"ls"');
  });

  it('does not give an earlier run’s error as the reason a later run ended', () => {
    const error = parseEvent({
      ...base,
      id: 'e1',
      source: 'environment',
      code: 'LLMError',
      detail: 'the model is down',
      kind: 'ConversationErrorEvent',
    });
    const first = [userMessage('u1', 'x'), status('s1', 'running'), status('s2', 'error'), error];
    const again = [...first, userMessage('u2', 'try again'), status('s3', 'running'), status('s4', 'stuck')];
    expect(projectTask('t', again).task().status.message?.parts).toEqual([
      { text: "The conversation ended with status 'stuck'" },
    ]);
  });

  it('stays ended when a failed or canceled task takes a new message no run took up, as its conversation does', () => {
    for (const ended of ['error', 'paused']) {
      const endedState = ended === 'error' ? 'TASK_STATE_FAILED' : 'TASK_STATE_CANCELED';
      const projection = projectTask('t', [userMessage('u1', 'x'), status('s1', 'running'), status('s2', ended)]);
      expect(projection.apply(userMessage('u2', 'try again'), 3)).toEqual([]);
      expect(projection.state).toBe(endedState);
      expect(projection.task().status.state).toBe(endedState);
      // The caller that starts the run opens its stream with the task submitted again, without the old reason.
      expect(projection.task({ runStarting: true }).status).toEqual({
        state: 'TASK_STATE_SUBMITTED',
        timestamp: expect.any(String),
      });
      projection.apply(status('s3', 'running'), 4);
      expect(projection.state).toBe('TASK_STATE_WORKING');
      expect(projection.task({ runStarting: true }).status.state).toBe('TASK_STATE_WORKING');
      projection.apply(status('s4', ended), 5);
      expect(projection.state).toBe(endedState);
    }
  });
});

describe('the task status timestamp', () => {
  const at = (timestamp: string, id: string): AnyEvent => ({ ...status(id, 'running'), timestamp }) as AnyEvent;

  it('is the latest event’s time in UTC with milliseconds, and an unreadable time keeps the previous one', () => {
    const projection = projectTask('t', [at('2026-03-04T05:06:07.123456+02:00', 's1')]);
    expect(projection.task().status.timestamp).toBe('2026-03-04T03:06:07.123Z');
    projection.apply(at('2026-03-04T05:06:08Z', 's2'), 1);
    expect(projection.task().status.timestamp).toBe('2026-03-04T05:06:08.000Z');
    projection.apply(at('yesterday', 's3'), 2);
    expect(projection.task().status.timestamp).toBe('2026-03-04T05:06:08.000Z');
    expect(projectTask('t', [at('', 's1')]).task().status).not.toHaveProperty('timestamp');
  });
});
