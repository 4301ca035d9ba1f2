// Multi-turn A2A through the official client (`@a2a-js/sdk`): a message's `contextId` continues the conversation it
// names, a client's own context id is kept (§3.4.1), a context id that disagrees with the task id is refused
// (§3.4.3), and `referenceTaskIds` give the agent the outcome of the tasks referenced.
import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage, userTextsSeen } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

const responseOf = (task: Task): unknown => task.artifacts[0]?.parts[0]?.content?.value;
const userTurns = (task: Task): unknown[] =>
  task.history.filter((message) => message.role === 1).map((message) => message.parts[0]?.content?.value);

describe('A2A contexts, driven by @a2a-js/sdk', () => {
  it('continues the conversation a second message names by contextId alone', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('first answer'), finishReply('second answer'));
    const first = (await client.sendMessage(send(userMessage([textPart('Remember the word heron')])))) as Task;
    const second = (await client.sendMessage(
      send(userMessage([textPart('Which word was it?')], { contextId: first.contextId })),
    )) as Task;
    expect(second.contextId).toBe(first.contextId);
    expect(second.id).toBe(first.id);
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(responseOf(second)).toBe('second answer');
    expect(userTurns(second)).toEqual(['Remember the word heron', 'Which word was it?']);
    // The model was given the whole conversation, the first turn included.
    expect(userTextsSeen(server.llm)).toEqual(['Remember the word heron', 'Which word was it?']);
  });

  it("keeps a client's own context id for a new context, and continues it with the next message", async () => {
    const { client, server } = fixture;
    const contextId = randomUUID();
    server.llm.push(finishReply('one'), finishReply('two'));
    const first = (await client.sendMessage(send(userMessage([textPart('Start here')], { contextId })))) as Task;
    expect(first.contextId).toBe(contextId);
    const second = (await client.sendMessage(send(userMessage([textPart('And go on')], { contextId })))) as Task;
    expect(second.contextId).toBe(contextId);
    expect(userTurns(second)).toEqual(['Start here', 'And go on']);
    const listed = await client.listTasks({
      tenant: '',
      contextId,
      status: 0,
      pageSize: undefined,
      pageToken: '',
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    });
    expect(listed.tasks.map((task) => task.contextId)).toEqual([contextId]);
    // The spellings SendMessage takes for the context filter the same way: 32 hex digits, upper case.
    for (const spelling of [contextId.replace(/-/g, ''), contextId.toUpperCase()]) {
      const respelled = await client.listTasks({
        tenant: '',
        contextId: spelling,
        status: 0,
        pageSize: undefined,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: false,
      });
      expect(respelled.tasks.map((task) => task.contextId)).toEqual([contextId]);
    }
  });

  it('refuses a context id it cannot keep as it is, creating nothing', async () => {
    const { client, server } = fixture;
    const before = (await server.built.manager.list()).length;
    await expect(
      client.sendMessage(send(userMessage([textPart('Hello')], { contextId: 'my-session-7' }))),
    ).rejects.toMatchObject({ name: 'RequestMalformedError', message: expect.stringContaining('my-session-7') });
    expect((await server.built.manager.list()).length).toBe(before);
  });

  it('refuses a message whose contextId is not the context of its taskId', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('done'));
    const task = (await client.sendMessage(send(userMessage([textPart('A task')])))) as Task;
    const requests = server.llm.requests.length;
    await expect(
      client.sendMessage(send(userMessage([textPart('More')], { taskId: task.id, contextId: randomUUID() }))),
    ).rejects.toMatchObject({ name: 'RequestMalformedError', message: expect.stringContaining('contextId') });
    const after = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(userTurns(after)).toEqual(['A task']);
    expect(server.llm.requests.length).toBe(requests);
  });

  it('gives the agent the outcome of the tasks a message references', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('The capital is Lisbon.'), finishReply('Summarised.'));
    const earlier = (await client.sendMessage(send(userMessage([textPart('Capital of Portugal?')])))) as Task;
    const later = (await client.sendMessage(
      send(userMessage([textPart('Summarise the earlier task')], { referenceTaskIds: [earlier.id] })),
    )) as Task;
    expect(later.id).not.toBe(earlier.id);
    expect(later.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const seen = userTextsSeen(server.llm).join('\n');
    expect(seen).toContain('Summarise the earlier task');
    expect(seen).toContain(earlier.id);
    expect(seen).toContain('The capital is Lisbon.');
  });

  it('refuses a reference to a task that does not exist, as TaskNotFound', async () => {
    const { client } = fixture;
    const missing = randomUUID();
    await expect(
      client.sendMessage(send(userMessage([textPart('Use it')], { referenceTaskIds: [missing] }))),
    ).rejects.toMatchObject({ name: 'TaskNotFoundError', message: expect.stringContaining(missing) });
  });
});
