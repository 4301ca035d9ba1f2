// How a task's outcome reaches the official client (`@a2a-js/sdk`) beyond a plain run: a model failure ends the
// stream failed with the model's error, which tasks can be subscribed to again (not the ended ones: completed,
// failed, canceled; yes one waiting for input), and a new turn's response is never an earlier turn's.
import type { Message, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { createRequest, finishReply } from '../helpers.js';
import { collect, send, textPart, useA2aFixture, userMessage, userTextsSeen } from './a2a-client-support.js';

const fixture = useA2aFixture();

const statusText = (task: Task): unknown => task.status?.message?.parts[0]?.content?.value;
const responseOf = (task: Task): unknown => task.artifacts[0]?.parts[0]?.content?.value;

function withConversation(message: Message, conversation: Record<string, unknown>): Message {
  return { ...message, metadata: { conversation } };
}

describe('A2A task outcomes, driven by @a2a-js/sdk', () => {
  it('streams a model failure as the failed status carrying its error, and refuses to resubscribe to it', async () => {
    const { client, server } = fixture;
    server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
    const items = await collect(client.sendMessageStream(send(userMessage([textPart('Fail, please')]))));
    const task = (items[0] as { $case: 'task'; value: Task }).value;
    const last = items.at(-1);
    expect(last?.$case).toBe('statusUpdate');
    const status = (last as { $case: 'statusUpdate'; value: { status: Task['status'] } }).value.status;
    expect(status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(status?.message?.parts[0]?.content?.value).toContain('the provider refused this request');
    expect(items.some((item) => item?.$case === 'artifactUpdate')).toBe(false);
    // One terminal status, the one that says why: nothing follows a final state on the stream.
    const failed = items.filter(
      (item) =>
        item?.$case === 'statusUpdate' &&
        (item.value as { status?: Task['status'] }).status?.state === TaskState.TASK_STATE_FAILED,
    );
    expect(failed).toHaveLength(1);

    const fetched = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(fetched)).toContain('the provider refused this request');
    await expect(client.resubscribeTask({ tenant: '', id: task.id }).next()).rejects.toMatchObject({
      name: 'UnsupportedOperationError',
    });
  });

  it('lets a client resubscribe to a task waiting for input, but not once it is canceled', async () => {
    const { client, server } = fixture;
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo needs-a-yes' } }] });
    const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const waiting = (await client.sendMessage(
      send(withConversation(userMessage([textPart('Ask before you run it')]), conversation)),
    )) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

    // Waiting for input is not an end: the stream gives the task as it is, and ends as no run is going.
    const resumed = await collect(client.resubscribeTask({ tenant: '', id: waiting.id }));
    expect(resumed).toHaveLength(1);
    const snapshot = (resumed[0] as { $case: 'task'; value: Task }).value;
    expect(snapshot.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(snapshot)).toContain('needs-a-yes');
    // It says how to answer: the approval a client sends to run the action, or the refusal with its reason.
    expect(statusText(snapshot)).toContain(
      'metadata.confirmation is { "approved": true } or { "approved": false, "reason": "…" }',
    );

    const canceled = await client.cancelTask({ tenant: '', id: waiting.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(client.resubscribeTask({ tenant: '', id: waiting.id }).next()).rejects.toMatchObject({
      name: 'UnsupportedOperationError',
    });
  });

  it("answers a follow-up with its own response, not the earlier turn's finish message", async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('first turn, by finish'), { content: 'second turn, said plainly' });
    const first = (await client.sendMessage(send(userMessage([textPart('One')])))) as Task;
    expect(responseOf(first)).toBe('first turn, by finish');
    const second = (await client.sendMessage(send(userMessage([textPart('Two')], { taskId: first.id })))) as Task;
    expect(second.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(responseOf(second)).toBe('second turn, said plainly');
  });

  it('tells an agent referencing a task busy with a new turn that it has no response yet', async () => {
    const { client, server } = fixture;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    server.llm.push(
      { content: 'the earlier answer' },
      { ...finishReply('the later answer'), gate },
      finishReply('Noted.'),
    );
    const busy = (await client.sendMessage(send(userMessage([textPart('First question')])))) as Task;
    expect(responseOf(busy)).toBe('the earlier answer');
    const asked = server.llm.requests.length;
    const followUp = client.sendMessageStream(send(userMessage([textPart('Second question')], { taskId: busy.id })));
    await followUp.next();
    // The follow-up's model call is held at the gate: the task is working on its new turn.
    await server.llm.waitForRequests(asked + 1);

    const referencing = (await client.sendMessage(
      send(userMessage([textPart('What did the other task answer?')], { referenceTaskIds: [busy.id] })),
    )) as Task;
    expect(referencing.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const seen = userTextsSeen(server.llm).join('\n');
    expect(seen).toContain(`Referenced task ${busy.id} (TASK_STATE_WORKING): (no response yet)`);
    expect(seen).not.toContain('the earlier answer');

    open();
    const rest = await collect(followUp);
    expect(rest.at(-1)).toMatchObject({ $case: 'statusUpdate' });
    const done = await client.getTask({ tenant: '', id: busy.id, historyLength: undefined });
    expect(responseOf(done)).toBe('the later answer');
  });
});
