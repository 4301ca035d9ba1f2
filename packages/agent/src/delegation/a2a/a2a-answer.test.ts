import { describe, expect, it } from 'vitest';
import { type A2aStreamItem, foldA2aStream, TASK_STATE } from './a2a-answer.js';

const part = (text: string) => ({ content: { $case: 'text', value: text } });
const artifact = (artifactId: string, text: string, append: boolean): A2aStreamItem => ({
  $case: 'artifactUpdate',
  value: { taskId: 't', contextId: 'c', artifact: { artifactId, parts: [part(text)] }, append },
});

describe('foldA2aStream', () => {
  it('appends artifact chunks, replaces an artifact sent again without append, keeps the last status', () => {
    const outcome = foldA2aStream([
      { $case: 'task', value: { id: 't', contextId: 'c', status: { state: TASK_STATE.submitted }, artifacts: [] } },
      artifact('a', 'draft', false),
      artifact('a', 'Hello, ', false),
      artifact('a', 'world', true),
      artifact('b', 'second artifact', false),
      {
        $case: 'statusUpdate',
        value: {
          taskId: 't',
          contextId: 'c',
          status: { state: TASK_STATE.completed, message: { parts: [part('done')] } },
        },
      },
    ]);
    expect(outcome).toEqual({
      taskId: 't',
      contextId: 'c',
      state: 'completed',
      artifactText: 'Hello, world\nsecond artifact',
      messageText: 'done',
    });
  });

  it('takes a direct message as the answer', () => {
    const outcome = foldA2aStream([
      { $case: 'message', value: { contextId: 'c', parts: [part('hi'), part('there')] } },
    ]);
    expect(outcome).toMatchObject({ state: 'message', messageText: 'hi\nthere', contextId: 'c' });
  });
});
