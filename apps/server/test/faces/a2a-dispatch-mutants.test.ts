// What each A2A method does with its task, judged by the official client (`@a2a-js/sdk`) against a real server:
// SendMessage waits for the run unless told to return at once, and trims the history it answers with; a task that
// waits for a confirmation can be subscribed to, and canceling it rejects what it waited for; a failed task is not
// cancelable; a task is read back whole by a server restarted on the same data; and a parameter error names the
// parameter.
import type { SendMessageRequest, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../src/index.js';
import { createRequest, finishReply, startTestServer, waitFor } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

let fixture: A2aFixture;
/** Opens the gate the model is held at, should a test end before it opened it. */
let release = (): void => undefined;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  release();
  await fixture.stop();
});

function configured(
  request: SendMessageRequest,
  configuration: { returnImmediately?: boolean; historyLength?: number },
) {
  return {
    ...request,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      historyLength: configuration.historyLength,
      returnImmediately: configuration.returnImmediately ?? false,
    },
  };
}

/** A task started on a conversation that asks before every action, now waiting for that confirmation. */
async function waitingTask(command: string): Promise<Task> {
  const { client, server } = fixture;
  // No reply after the call: the task is canceled or left waiting, and the model is never asked again.
  server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command } }] });
  const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
  const task = (await client.sendMessage(
    send({ ...userMessage([textPart('Tidy up')]), metadata: { conversation } }),
  )) as Task;
  expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  return task;
}

describe('A2A methods and their tasks, driven by @a2a-js/sdk', () => {
  it('answers at once when asked to return immediately, with the task still working', async () => {
    const { client, server } = fixture;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    release = open;
    server.llm.push({ ...finishReply('late'), gate });
    const task = (await client.sendMessage(
      configured(send(userMessage([textPart('No rush')])), { returnImmediately: true }),
    )) as Task;
    expect(task.status?.state).not.toBe(TaskState.TASK_STATE_COMPLETED);
    open();
    await waitFor(async () => {
      const read = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
      return read.status?.state === TaskState.TASK_STATE_COMPLETED;
    });
  });

  it('answers SendMessage and GetTask with no more history than asked for', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('one'), finishReply('two'));
    const first = (await client.sendMessage(send(userMessage([textPart('Do it')])))) as Task;
    const trimmed = (await client.sendMessage(
      configured(send(userMessage([textPart('Once more')], { taskId: first.id })), { historyLength: 0 }),
    )) as Task;
    expect(trimmed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(trimmed.history).toEqual([]);
    const full = await client.getTask({ tenant: '', id: first.id, historyLength: undefined });
    expect(full.history.length).toBeGreaterThan(1);
    expect((await client.getTask({ tenant: '', id: first.id, historyLength: 0 })).history).toEqual([]);
    const last = await client.getTask({ tenant: '', id: first.id, historyLength: 1 });
    expect(last.history).toEqual([full.history.at(-1)]);
  });

  it('lets a client subscribe to a task waiting for a confirmation', async () => {
    const task = await waitingTask('rm -rf build');
    const managed = await fixture.server.built.manager.require(task.id);
    while (managed.isRunning) await managed.waitForRun(60_000);
    const stream = fixture.client.resubscribeTask({ tenant: '', id: task.id });
    const first = await stream.next();
    // The opening task is the whole log as it is: the stream that follows carries only what comes after.
    expect(first.value?.payload).toMatchObject({
      $case: 'task',
      value: {
        id: task.id,
        status: { state: TaskState.TASK_STATE_INPUT_REQUIRED },
        metadata: { logLength: managed.log.length },
      },
    });
    await stream.return(undefined);
  });

  it('cancels a task waiting for a confirmation by rejecting the action it waited for', async () => {
    const { client, server } = fixture;
    const task = await waitingTask('rm -rf cache');
    const canceled = await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const managed = await server.built.manager.require(task.id);
    expect(await (await managed.open()).pendingActions()).toEqual([]);
    const events = await managed.log.range(0, managed.log.length);
    expect(events.filter((event) => event.kind === 'UserRejectObservation')).toEqual([
      expect.objectContaining({ rejection_reason: 'The task was canceled' }),
    ]);
  });

  it('declares no push notifications on its card, as it refuses them', async () => {
    const card = await fixture.client.getAgentCard();
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: false, extendedAgentCard: false });
  });

  it('tells a client of another protocol version, or one asking for the extended card, what the card says', async () => {
    const reply = async (method: string): Promise<{ code: number; message: string }> => {
      const response = await fetch(`${fixture.server.url}/api/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
      });
      return ((await response.json()) as { error: { code: number; message: string } }).error;
    };
    expect(await reply('tasks/get')).toMatchObject({
      code: -32009,
      message: expect.stringMatching(/'tasks\/get' is an A2A 0\.3 method: this agent speaks A2A 1\.0 only/),
    });
    expect(await reply('GetExtendedAgentCard')).toMatchObject({
      code: -32004,
      message: expect.stringContaining('extendedAgentCard: false'),
    });
  });

  it('refuses to cancel a failed task', async () => {
    const { client, server } = fixture;
    server.llm.push({ error: { status: 400, message: 'the provider refused this request' } });
    const failed = (await client.sendMessage(send(userMessage([textPart('Fail please')])))) as Task;
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    await expect(client.cancelTask({ tenant: '', id: failed.id, metadata: undefined })).rejects.toMatchObject({
      name: 'TaskNotCancelableError',
    });
  });

  it('reads a task back whole from a server restarted on the same data', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('kept'));
    const task = (await client.sendMessage(send(userMessage([textPart('Remember this')])))) as Task;
    const managed = await server.built.manager.require(task.id);
    expect(task.metadata?.logLength).toBe(managed.log.length);
    const restarted = await startTestServer({
      dataDir: server.dataDir,
      llm: server.llm,
      config: { a2aConversation: createRequest(server.llm) as ServerConfigInput['a2aConversation'] },
    });
    try {
      const again = await new ClientFactory().createFromUrl(restarted.url);
      const read = await again.getTask({ tenant: '', id: task.id, historyLength: undefined });
      expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(read.artifacts[0]?.parts[0]?.content?.value).toBe('kept');
      expect(read.history[0]?.parts[0]?.content?.value).toBe('Remember this');
      expect(read.metadata?.logLength).toBe(task.metadata?.logLength);
    } finally {
      await restarted.built.close();
    }
  });
});

describe('A2A parameter errors, over raw JSON-RPC', () => {
  async function call(method: string, params: unknown): Promise<{ error?: { code: number; message: string } }> {
    const response = await fetch(`${fixture.server.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await response.json()) as { error?: { code: number; message: string } };
  }

  it('names the one parameter that is wrong, and what is wrong with it', async () => {
    const answer = await call('GetTask', { id: 42 });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/^GetTask: params\.id: \S/);
  });
});
