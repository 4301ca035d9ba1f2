// A client's own `messageId` through the official client (`@a2a-js/sdk`): the task's history gives a message back
// under the id it was sent with, a message sent again with an id the task already holds is refused (-32602) and
// recorded once, and a `messageId` that cannot be an event's id (a blank in it) still starts the task, under an id
// of the server's.
import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { finishReply } from '../helpers.js';
import { send, textPart, useA2aFixture, userMessage } from './a2a-client-support.js';

const fixture = useA2aFixture();

const userIds = (task: Task): string[] =>
  task.history.filter((message) => message.role === 1).map((message) => message.messageId);

describe('A2A message ids, driven by @a2a-js/sdk', () => {
  it('gives each message back in the history under the messageId it was sent with', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('one'), finishReply('two'));
    const first = userMessage([textPart('First turn')]);
    const task = (await client.sendMessage(send(first))) as Task;
    const second = userMessage([textPart('Second turn')], { taskId: task.id });
    const continued = (await client.sendMessage(send(second))) as Task;
    expect(continued.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(userIds(continued)).toEqual([first.messageId, second.messageId]);
    const read = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(userIds(read)).toEqual([first.messageId, second.messageId]);
  });

  it('refuses a message sent again with a messageId the task holds, and records it once', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('done'));
    const message = userMessage([textPart('Only once')]);
    const task = (await client.sendMessage(send(message))) as Task;
    const again = { ...message, taskId: task.id };
    const error = await client.sendMessage(send(again)).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error).toMatchObject({ name: 'RequestMalformedError', envelopeCode: -32602 });
    expect(error?.message).toContain(`message.messageId '${message.messageId}' is already in the history`);
    const read = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(userIds(read)).toEqual([message.messageId]);
    expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("starts a task from a messageId that cannot be an event's id, under an id of the server's", async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('ok'));
    const message = { ...userMessage([textPart('Odd id')]), messageId: `client message ${randomUUID()}` };
    const task = (await client.sendMessage(send(message))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [id] = userIds(task);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
