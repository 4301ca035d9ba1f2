// A run another face asks for on a task at the moment an A2A message to it is recorded (after the face found the task
// idle, before it started the message's run), through the official client (`@a2a-js/sdk`): the A2A message claimed
// the task's run with that check, so it is answered by its own run, and the other face's run is refused as any run
// asked for during a run is (409), having recorded nothing. The A2A sender is never told its message failed after it
// was recorded: neither a new turn nor an answer to a confirmation (whose decision would stand, refused). The other
// face's run is asked for as REST `/run` asks (`ManagedConversation.startRun`), from a subscriber to the
// conversation's events, at the exact moment the A2A message is recorded: no timing is involved.
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type { AnyEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage, userTextsSeen } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

const saidByUser = (text: string) => (event: AnyEvent) =>
  event.kind === 'MessageEvent' &&
  event.source === 'user' &&
  event.llm_message.content.some((part) => part.type === 'text' && part.text === text);

/** A hook that asks for another face's run on the task once an event `matching` is recorded: that run's outcome. */
async function runAskedOn(taskId: string, matching: (event: AnyEvent) => boolean): Promise<{ outcome: Promise<void> }> {
  const managed = await fixture.server.built.manager.require(taskId);
  const conversation = await managed.open();
  let started: Promise<void> | undefined;
  const outcome = new Promise<void>((resolve, reject) => {
    const unsubscribe = conversation.subscribe((event, index) => {
      if (started !== undefined || index === undefined || !matching(event)) return;
      unsubscribe();
      started = managed.startRun();
      started.then(resolve, reject);
    });
  });
  // Refused while the A2A request goes on, and checked once it has answered: not an unhandled rejection meanwhile.
  outcome.catch(() => undefined);
  // Wrapped: an async function's promise would wait for the run it returned, asked for only later.
  return { outcome };
}

async function finishedTask(): Promise<string> {
  fixture.server.llm.push(finishReply('First.'));
  return ((await fixture.client.sendMessage(send(userMessage([textPart('Start')])))) as Task).id;
}

/** The events of kind `kind` the task's log holds. */
async function recorded(taskId: string, kind: string): Promise<AnyEvent[]> {
  const conversation = await (await fixture.server.built.manager.require(taskId)).open();
  return (await conversation.log.range(0, conversation.log.length)).filter((event) => event.kind === kind);
}

describe('A2A message recorded as another face asks for a run', () => {
  it("SendMessage is answered by the message's own run; the other face's run is refused", async () => {
    const taskId = await finishedTask();
    const { outcome: otherRun } = await runAskedOn(taskId, saidByUser('Raced'));
    // One reply: A2A's run answers the message, and no other run follows.
    fixture.server.llm.push(finishReply('Answered by its own run.'));

    const task = (await fixture.client.sendMessage(send(userMessage([textPart('Raced')], { taskId })))) as Task;

    await expect(otherRun).rejects.toMatchObject({ statusCode: 409 });
    expect(task.id).toBe(taskId);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.at(-1)?.parts[0]?.content?.value).toBe('Answered by its own run.');
    expect(userTextsSeen(fixture.server.llm)).toEqual(['Start', 'Raced']);
  });

  it('SendStreamingMessage streams the run of the message, from the message on', async () => {
    const taskId = await finishedTask();
    const { outcome: otherRun } = await runAskedOn(taskId, saidByUser('Raced too'));
    fixture.server.llm.push(finishReply('Streamed by its own run.'));

    const items: StreamResponse['payload'][] = [];
    const stream = fixture.client.sendMessageStream(send(userMessage([textPart('Raced too')], { taskId })));
    for await (const event of stream) items.push(event.payload);

    await expect(otherRun).rejects.toMatchObject({ statusCode: 409 });
    expect(items[0]?.$case).toBe('task');
    expect((items[0] as { value: Task }).value.id).toBe(taskId);
    const states = items.flatMap((item) => (item?.$case === 'statusUpdate' ? [item.value.status?.state] : []));
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const artifactTexts = items.flatMap((item) =>
      item?.$case === 'artifactUpdate' ? [item.value.artifact?.parts[0]?.content?.value] : [],
    );
    expect(artifactTexts).toContain('Streamed by its own run.');
  });

  it('an answer to a confirmation is taken and run, not refused after its decision was recorded', async () => {
    const { server, client } = fixture;
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] });
    const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const waiting = (await client.sendMessage(
      send({ ...userMessage([textPart('Clean the build')]), metadata: { conversation } }),
    )) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // The other face's run is asked for once the refusal is in the log, before A2A starts the run that reports it.
    const { outcome: otherRun } = await runAskedOn(waiting.id, (event) => event.kind === 'UserRejectObservation');
    server.llm.push(finishReply('Left the build alone.'));

    const task = (await client.sendMessage(send(userMessage([textPart('not now')], { taskId: waiting.id })))) as Task;

    await expect(otherRun).rejects.toMatchObject({ statusCode: 409 });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts.at(-1)?.parts[0]?.content?.value).toBe('Left the build alone.');
    expect(await recorded(waiting.id, 'UserRejectObservation')).toEqual([
      expect.objectContaining({ rejection_reason: 'not now' }),
    ]);
  });
});
