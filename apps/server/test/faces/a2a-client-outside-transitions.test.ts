// A task's state when its conversation is driven from outside the A2A face (the REST API, an AG-UI run), judged by
// the official client (`@a2a-js/sdk`): GetTask, ListTasks and CancelTask read one state, the conversation's, so a
// message the REST API adds without a run to a failed or canceled task leaves it ended (nothing will work on it
// until a run starts), a message to a completed one leaves it submitted and cancelable, and a REST pause or an
// AG-UI run shows as the cancel or the run it is.
import { randomUUID } from 'node:crypto';
import type { ListTasksRequest, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, waitFor, waitForIdle } from '../helpers.js';
import { XAgent } from '../support/ag-ui-agent.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

let fixture: A2aFixture;
beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

const getTask = (id: string): Promise<Task> => fixture.client.getTask({ tenant: '', id, historyLength: undefined });
const cancelTask = (id: string): Promise<Task> => fixture.client.cancelTask({ tenant: '', id, metadata: undefined });

async function listedState(id: string, status: TaskState): Promise<TaskState | undefined> {
  const request: ListTasksRequest = {
    tenant: '',
    contextId: id,
    status,
    pageSize: undefined,
    pageToken: '',
    historyLength: undefined,
    statusTimestampAfter: undefined,
    includeArtifacts: false,
  };
  return (await fixture.client.listTasks(request)).tasks[0]?.status?.state;
}

/** Adds a user message over the REST API without starting a run. */
async function restMessage(id: string, text: string): Promise<void> {
  const { status } = await fixture.server.call('POST', `/api/conversations/${id}/events`, {
    role: 'user',
    content: [{ type: 'text', text }],
    run: false,
  });
  expect(status).toBe(200);
}

async function failedTask(): Promise<Task> {
  fixture.server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
  const failed = (await fixture.client.sendMessage(send(userMessage([textPart('Fail first')])))) as Task;
  expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  return failed;
}

describe('A2A tasks driven from outside the face, read by @a2a-js/sdk', () => {
  it('keeps a failed task failed for get, list and cancel when the REST API adds a message without a run', async () => {
    const failed = await failedTask();
    await restMessage(failed.id, 'Try again later');

    expect((await getTask(failed.id)).status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(await listedState(failed.id, TaskState.TASK_STATE_FAILED)).toBe(TaskState.TASK_STATE_FAILED);
    await expect(cancelTask(failed.id)).rejects.toMatchObject({ name: 'TaskNotCancelableError' });
    await expect(fixture.client.resubscribeTask({ tenant: '', id: failed.id }).next()).rejects.toMatchObject({
      name: 'UnsupportedOperationError',
    });

    // A REST run takes the message up: the task works and completes on it.
    fixture.server.llm.push(finishReply('Recovered.'));
    expect((await fixture.server.call('POST', `/api/conversations/${failed.id}/run`)).status).toBe(200);
    await waitForIdle(fixture.server, failed.id);
    const done = await getTask(failed.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts[0]?.parts[0]?.content?.value).toBe('Recovered.');
  });

  it('keeps a canceled task canceled, and cancel answers it as it is, after a REST message without a run', async () => {
    fixture.server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo held' } }] });
    const conversation = createRequest(fixture.server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const waiting = (await fixture.client.sendMessage(
      send({ ...userMessage([textPart('Ask first')]), metadata: { conversation } }),
    )) as Task;
    expect((await cancelTask(waiting.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await restMessage(waiting.id, 'Something else');

    expect((await getTask(waiting.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(await listedState(waiting.id, TaskState.TASK_STATE_CANCELED)).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await cancelTask(waiting.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('cancels a completed task the REST API gave a new message, which the conversation took as a new turn', async () => {
    fixture.server.llm.push(finishReply('First answer.'));
    const done = (await fixture.client.sendMessage(send(userMessage([textPart('Answer me')])))) as Task;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await restMessage(done.id, 'One more thing');

    expect((await getTask(done.id)).status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(await listedState(done.id, TaskState.TASK_STATE_SUBMITTED)).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect((await cancelTask(done.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const { json } = await fixture.server.call('GET', `/api/conversations/${done.id}`);
    expect((json as { execution_status: string }).execution_status).toBe('paused');
  });

  it('shows a REST pause of a working task as its cancellation, which CancelTask then answers as it is', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The model call in flight is a tool call: its step ends the run, as a pause stops it between steps.
    fixture.server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo slow' } }], gate });
    const working = (await fixture.client.sendMessage({
      ...send(userMessage([textPart('Work slowly')])),
      configuration: { acceptedOutputModes: [], historyLength: undefined, returnImmediately: true } as never,
    })) as Task;
    expect((await getTask(working.id)).status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await fixture.server.call('POST', `/api/conversations/${working.id}/pause`)).status).toBe(200);

    expect((await getTask(working.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await cancelTask(working.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    release();
    await waitForIdle(fixture.server, working.id);
    expect((await getTask(working.id)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(await listedState(working.id, TaskState.TASK_STATE_CANCELED)).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('shows an AG-UI run on a failed task as the run it is: completed, and no longer cancelable', async () => {
    const failed = await failedTask();
    fixture.server.llm.push(finishReply('Fixed over AG-UI.'));
    const agent = new XAgent(fixture.server.url, failed.id);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Try once more' });
    await agent.runAgent();
    await waitFor(async () => (await getTask(failed.id)).status?.state === TaskState.TASK_STATE_COMPLETED);

    const done = await getTask(failed.id);
    expect(done.artifacts[0]?.parts[0]?.content?.value).toBe('Fixed over AG-UI.');
    expect(done.status?.message).toBeUndefined();
    await expect(cancelTask(failed.id)).rejects.toMatchObject({ name: 'TaskNotCancelableError' });
  });
});
