// A follow-up message to a task that failed or was canceled, through the official client (`@a2a-js/sdk`): the task
// takes it (a task is its conversation, which goes on), so the stream it answers with starts with the task
// submitted again, never with the ended state and its old reason, then works and ends as the new run does.
import type { Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { createRequest, finishReply } from '../helpers.js';
import { collect, type StreamPayload, send, textPart, useA2aFixture, userMessage } from './a2a-client-support.js';

const fixture = useA2aFixture();

const statesOf = (items: StreamPayload[]): (number | undefined)[] =>
  items.flatMap((item) => (item?.$case === 'statusUpdate' ? [item.value.status?.state] : []));

async function followUp(taskId: string): Promise<StreamPayload[]> {
  fixture.server.llm.push(finishReply('Done this time.'));
  return collect(fixture.client.sendMessageStream(send(userMessage([textPart('Try again')], { taskId }))));
}

describe('A2A follow-up to an ended task, driven by @a2a-js/sdk', () => {
  it('streams a failed task taken up again as submitted, then working, then completed', async () => {
    const { client, server } = fixture;
    server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
    const failed = (await client.sendMessage(send(userMessage([textPart('Fail first')])))) as Task;
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);

    const items = await followUp(failed.id);
    expect(items[0]?.$case).toBe('task');
    const first = (items[0] as { value: Task }).value;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(first.status?.message).toBeUndefined();
    expect(statesOf(items)[0]).toBe(TaskState.TASK_STATE_WORKING);
    expect(statesOf(items).at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const done = await client.getTask({ tenant: '', id: failed.id, historyLength: undefined });
    expect(done.artifacts[0]?.parts[0]?.content?.value).toBe('Done this time.');
  });

  it('streams a canceled task taken up again as submitted, then working, then completed', async () => {
    const { client, server } = fixture;
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo held' } }] });
    const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const waiting = (await client.sendMessage(
      send({ ...userMessage([textPart('Ask first')]), metadata: { conversation } }),
    )) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const canceled = await client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    const items = await followUp(waiting.id);
    expect((items[0] as { value: Task }).value.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(statesOf(items)[0]).toBe(TaskState.TASK_STATE_WORKING);
    expect(statesOf(items).at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
