// A run another face starts on a task at the moment an A2A message to it is recorded (after the face found the task
// idle, before it started the message's run), through the official client (`@a2a-js/sdk`): that run takes the
// message, and the sender gets the task of that run, not an error for a message that was accepted. The other face's
// run is started as REST `/run` starts it (`ManagedConversation.startRun`), from a subscriber to the conversation's
// events, at the exact moment the A2A message is recorded: no timing is involved.
import type { StreamResponse, Task } from '@a2a-js/sdk';
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

/** A finished task, and a hook that starts another face's run on it once a user message with `text` is recorded. */
async function taskWithRunStartedOn(text: string): Promise<{ taskId: string; otherRun: Promise<void> }> {
  const { client, server } = fixture;
  server.llm.push(finishReply('First.'));
  const first = (await client.sendMessage(send(userMessage([textPart('Start')])))) as Task;
  const managed = await server.built.manager.require(first.id);
  const conversation = await managed.open();
  let started: Promise<void> | undefined;
  const otherRun = new Promise<void>((resolve, reject) => {
    const unsubscribe = conversation.subscribe((event) => {
      const said = event.kind === 'MessageEvent' && event.source === 'user' ? event.llm_message.content : [];
      if (started !== undefined || !said.some((part) => part.type === 'text' && part.text === text)) return;
      unsubscribe();
      started = managed.startRun();
      started.then(resolve, reject);
    });
  });
  return { taskId: first.id, otherRun };
}

describe('A2A message recorded as another face starts a run', () => {
  it('SendMessage answers with the task of the run that took the message', async () => {
    const { taskId, otherRun } = await taskWithRunStartedOn('Raced');
    // One reply: the other face's run answers the message, and no run of A2A's own follows.
    fixture.server.llm.push(finishReply('Answered by the run in progress.'));

    const task = (await fixture.client.sendMessage(send(userMessage([textPart('Raced')], { taskId })))) as Task;
    await otherRun;

    expect(task.id).toBe(taskId);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.at(-1)?.parts[0]?.content?.value).toBe('Answered by the run in progress.');
    expect(userTextsSeen(fixture.server.llm)).toEqual(['Start', 'Raced']);
  });

  it('SendStreamingMessage streams the run that took the message, from the message on', async () => {
    const { taskId, otherRun } = await taskWithRunStartedOn('Raced too');
    fixture.server.llm.push(finishReply('Streamed by the run in progress.'));

    const items: StreamResponse['payload'][] = [];
    const stream = fixture.client.sendMessageStream(send(userMessage([textPart('Raced too')], { taskId })));
    for await (const event of stream) items.push(event.payload);
    await otherRun;

    expect(items[0]?.$case).toBe('task');
    expect((items[0] as { value: Task }).value.id).toBe(taskId);
    const states = items.flatMap((item) => (item?.$case === 'statusUpdate' ? [item.value.status?.state] : []));
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const artifactTexts = items.flatMap((item) =>
      item?.$case === 'artifactUpdate' ? [item.value.artifact?.parts[0]?.content?.value] : [],
    );
    expect(artifactTexts).toContain('Streamed by the run in progress.');
  });
});
