import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { type A2aStreamItem, foldA2aStream, isTerminalState, TASK_STATE } from './a2a-answer.js';

const part = (text: string) => ({ content: { $case: 'text', value: text } });
const task = (state: number, metadata?: Record<string, unknown>): A2aStreamItem => ({
  $case: 'task',
  value: { id: 't', contextId: 'c', status: { state }, artifacts: [], metadata },
});

describe('TASK_STATE', () => {
  it("numbers the states as @a2a-js/sdk's TaskState does", () => {
    expect(TASK_STATE).toEqual({
      submitted: TaskState.TASK_STATE_SUBMITTED,
      working: TaskState.TASK_STATE_WORKING,
      completed: TaskState.TASK_STATE_COMPLETED,
      failed: TaskState.TASK_STATE_FAILED,
      canceled: TaskState.TASK_STATE_CANCELED,
      inputRequired: TaskState.TASK_STATE_INPUT_REQUIRED,
      rejected: TaskState.TASK_STATE_REJECTED,
      authRequired: TaskState.TASK_STATE_AUTH_REQUIRED,
    });
  });
});

describe('foldA2aStream', () => {
  it('takes a lone task (a SendMessage answer): its ids, its state by name, its usage and its artifacts', () => {
    const outcome = foldA2aStream([
      {
        $case: 'task',
        value: {
          id: 't',
          contextId: 'c',
          status: { state: TaskState.TASK_STATE_COMPLETED },
          artifacts: [{ artifactId: 'a', parts: [part('the answer')] }],
          metadata: { usage: { costUsd: 1 } },
        },
      },
    ]);
    expect(outcome).toEqual({
      taskId: 't',
      contextId: 'c',
      state: 'completed',
      artifactText: 'the answer',
      messageText: '',
      usage: { costUsd: 1 },
    });
  });

  it('names each state the SDK defines, and an unknown one by its number', () => {
    const names = [1, 2, 3, 4, 5, 6, 7, 8, 42].map((state) => foldA2aStream([task(state)]).state);
    expect(names).toEqual([
      'submitted',
      'working',
      'completed',
      'failed',
      'canceled',
      'inputRequired',
      'rejected',
      'authRequired',
      'state 42',
    ]);
  });

  it('keeps the last usage reported, whichever item carried it, and skips empty items', () => {
    const outcome = foldA2aStream([
      undefined,
      task(TaskState.TASK_STATE_WORKING, { usage: { costUsd: 1 } }),
      { $case: 'statusUpdate', value: { taskId: 't', contextId: 'c', status: { state: 3 }, metadata: {} } },
      undefined,
    ]);
    expect(outcome).toMatchObject({ state: 'completed', usage: { costUsd: 1 } });
    const fromMessage = foldA2aStream([
      { $case: 'message', value: { contextId: 'c', parts: [part('hi')], metadata: { usage: { costUsd: 2 } } } },
    ]);
    expect(fromMessage.usage).toEqual({ costUsd: 2 });
  });

  it('takes the ids of a status update and of an artifact update, which may come without an artifact', () => {
    expect(
      foldA2aStream([{ $case: 'statusUpdate', value: { taskId: 't1', contextId: 'c1', status: undefined } }]),
    ).toMatchObject({ taskId: 't1', contextId: 'c1', state: 'submitted' });
    expect(
      foldA2aStream([
        { $case: 'artifactUpdate', value: { taskId: 't2', contextId: 'c2', artifact: undefined, append: true } },
      ]),
    ).toMatchObject({ taskId: 't2', contextId: 'c2', artifactText: '' });
  });

  it('keeps the task and context of the exchange when a message names neither', () => {
    const outcome = foldA2aStream([
      task(TaskState.TASK_STATE_WORKING),
      { $case: 'message', value: { contextId: '', parts: [part('direct')] } },
    ]);
    expect(outcome).toMatchObject({ taskId: 't', contextId: 'c', state: 'message', messageText: 'direct' });
  });
});

describe('isTerminalState', () => {
  it('ends the task on completed, failed, canceled, rejected and a direct message only', () => {
    const states = ['completed', 'failed', 'canceled', 'rejected', 'message'];
    const open = ['submitted', 'working', 'inputRequired', 'authRequired', 'state 42'];
    expect(states.map(isTerminalState)).toEqual(states.map(() => true));
    expect(open.map(isTerminalState)).toEqual(open.map(() => false));
  });
});
