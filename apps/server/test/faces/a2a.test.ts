// The A2A face judged by the official client: `@a2a-js/sdk`'s ClientFactory finds the server from its agent card
// and drives tasks over JSON-RPC against `x serve` (a real server on 127.0.0.1, the scripted OpenAI-protocol
// model), including a cancellation and a resubscription while the model is held at a gate.
import { randomUUID } from 'node:crypto';
import { type Message, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectTask } from '../../src/faces/a2a/index.js';
import type { ServerConfigInput } from '../../src/index.js';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer();
  client = await new ClientFactory().createFromUrl(server.url);
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** A user message starting a task on the scripted model (its create body in metadata), or continuing `taskId`. */
function userMessage(text: string, options: { taskId?: string; metadata?: Record<string, unknown> } = {}): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: options.taskId ?? '',
    role: 1, // ROLE_USER
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: options.metadata ?? (options.taskId === undefined ? { conversation: createRequest(server.llm) } : {}),
    extensions: [],
    referenceTaskIds: [],
  };
}

const send = (message: Message) => ({ tenant: '', message, configuration: undefined, metadata: undefined });

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** What identifies a stream item: its kind, the task state, the message or artifact, the log index. */
function keyOf(item: StreamResponse['payload']): string {
  switch (item?.$case) {
    case 'task':
      return `task:${item.value.status?.state}`;
    case 'statusUpdate':
      return `status:${item.value.status?.state}:${item.value.status?.message?.messageId ?? ''}:${item.value.metadata?.logIndex}`;
    case 'artifactUpdate':
      return `artifact:${item.value.artifact?.artifactId}:${item.value.artifact?.parts[0]?.content?.value}`;
    default:
      return String(item?.$case);
  }
}

/** The stream the face's mapping gives for the task's log from `from` on: what a stream must have been. */
async function expectedFrom(taskId: string, from: number): Promise<string[]> {
  const managed = await server.built.manager.require(taskId);
  const events = await managed.log.range(0, managed.log.length);
  const projection = projectTask(taskId, events.slice(0, from));
  return events
    .slice(from)
    .flatMap((event, offset) => projection.apply(event, from + offset))
    .map((item) => {
      if ('statusUpdate' in item) {
        const { status, metadata } = item.statusUpdate;
        return `status:${TaskState[status.state]}:${status.message?.messageId ?? ''}:${metadata?.logIndex}`;
      }
      if ('artifactUpdate' in item) {
        const part = item.artifactUpdate.artifact.parts[0] as { text: string };
        return `artifact:${item.artifactUpdate.artifact.artifactId}:${part.text}`;
      }
      return 'task';
    });
}

const textOf = (task: Task): unknown => task.artifacts[0]?.parts[0]?.content?.value;

describe('A2A face, driven by @a2a-js/sdk', () => {
  it('serves a public agent card describing the JSON-RPC endpoint, streaming and the tools as skills', async () => {
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${server.url}/api/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }),
    ]);
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills.map((skill) => skill.id)).toContain('terminal');
    const raw = await fetch(`${server.url}/.well-known/agent-card.json`);
    expect(raw.status).toBe(200);
  });

  it('runs a task to completion: SendMessage returns the completed task with the response artifact', async () => {
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo from-a2a' } }] },
      finishReply('Said it.'),
    );
    const result = await client.sendMessage(send(userMessage('Say hello from the terminal')));
    const task = result as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.contextId).toBe(task.id);
    expect(textOf(task)).toBe('Said it.');
    expect(task.history[0]?.parts[0]?.content?.value).toBe('Say hello from the terminal');

    const fetched = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(fetched)).toBe('Said it.');
    const listed = await client.listTasks({
      tenant: '',
      contextId: task.id,
      status: 0,
      pageSize: undefined,
      pageToken: '',
      historyLength: undefined,
      statusTimestampAfter: undefined,
      includeArtifacts: true,
    });
    expect(listed.tasks.map((entry) => entry.id)).toEqual([task.id]);
  });

  it('continues a completed task with a follow-up message on its taskId', async () => {
    server.llm.push(finishReply('first'), finishReply('second'));
    const first = (await client.sendMessage(send(userMessage('One')))) as Task;
    const second = (await client.sendMessage(send(userMessage('Two', { taskId: first.id })))) as Task;
    expect(second.id).toBe(first.id);
    expect(textOf(second)).toBe('second');
    expect(second.history.filter((message) => message.role === 1)).toHaveLength(2);
  });

  it('streams a task from its log: the task, working updates, the artifact, then completed, each once', async () => {
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo streamed' } }] },
      finishReply('Streamed.'),
    );
    const items: StreamResponse['payload'][] = [];
    for await (const event of client.sendMessageStream(send(userMessage('Stream it')))) items.push(event.payload);
    expect(items[0]?.$case).toBe('task');
    const task = (items[0] as { value: Task }).value;
    const states = items.flatMap((item) => (item?.$case === 'statusUpdate' ? [item.value.status?.state] : []));
    expect(states[0]).toBe(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(states.slice(0, -1).every((state) => state === TaskState.TASK_STATE_WORKING)).toBe(true);
    expect(items.at(-2)?.$case).toBe('artifactUpdate');
    const results = items.filter(
      (item) =>
        item?.$case === 'statusUpdate' && JSON.stringify(item.value.status?.message?.parts ?? []).includes('streamed'),
    );
    expect(results.length).toBeGreaterThan(0);
    const from = Number(task.metadata?.logLength);
    expect(items.slice(1).map(keyOf)).toEqual(await expectedFrom(task.id, from));
  });

  it('cancels a task held at a gate: CancelTask answers canceled, and the stream ends canceled', async () => {
    const held = gate();
    // The run stops before its next step once paused: no later reply is asked for.
    server.llm.push({
      toolCalls: [{ name: 'terminal', arguments: { command: 'echo last-step' } }],
      gate: held.promise,
    });
    const stream = client.sendMessageStream(send(userMessage('Take your time')));
    const first = await stream.next();
    const task = (first.value as StreamResponse).payload as { $case: 'task'; value: Task };
    expect(task.$case).toBe('task');
    const canceled = await client.cancelTask({ tenant: '', id: task.value.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    held.open();
    const rest: StreamResponse['payload'][] = [];
    for await (const event of stream) rest.push(event.payload);
    const last = rest.filter((item) => item?.$case === 'statusUpdate').at(-1) as {
      value: { status: { state: number } };
    };
    expect(last.value.status.state).toBe(TaskState.TASK_STATE_CANCELED);
    const after = await client.getTask({ tenant: '', id: task.value.id, historyLength: undefined });
    expect(after.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    // A canceled task is canceled again without complaint.
    const again = await client.cancelTask({ tenant: '', id: task.value.id, metadata: undefined });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('resubscribes to a task mid-run: a snapshot, then the rest of the log, with no gap and no duplicate', async () => {
    const held = gate();
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo part-one' } }] },
      { ...finishReply('part two'), gate: held.promise },
    );
    const seen: StreamResponse['payload'][] = [];
    const stream = client.sendMessageStream(send(userMessage('Two parts')));
    for await (const event of stream) {
      seen.push(event.payload);
      // The tool's result arrived: the model is now held at the gate. Drop this stream.
      const text = JSON.stringify(event.payload?.value ?? {});
      if (text.includes('toolResult') && text.includes('part-one')) break;
    }
    const taskId = (seen[0] as { value: Task }).value.id;
    const managed = await server.built.manager.require(taskId);
    expect(managed.isRunning).toBe(true);

    const resumed: StreamResponse['payload'][] = [];
    const again = client.resubscribeTask({ tenant: '', id: taskId });
    const snapshot = await again.next();
    const task = ((snapshot.value as StreamResponse).payload as { value: Task }).value;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    // Released only once resubscribed: what follows can only reach the client through the log.
    held.open();
    for await (const event of again) resumed.push(event.payload);

    const from = Number(task.metadata?.logLength);
    expect(resumed.map(keyOf)).toEqual(await expectedFrom(taskId, from));
    expect(resumed.at(-1)).toMatchObject({ $case: 'statusUpdate' });
    expect(keyOf(resumed.at(-1))).toContain(`status:${TaskState.TASK_STATE_COMPLETED}`);
    const ids = resumed.map(keyOf);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('asks for input when an action needs confirmation, and runs it once approved in message metadata', async () => {
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo risky-step' } }] },
      finishReply('ok'),
    );
    const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const waiting = (await client.sendMessage(
      send(userMessage('Do the risky thing', { metadata: { conversation } })),
    )) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(waiting.status?.message?.parts[0]?.content?.value).toContain('risky-step');

    const approve = userMessage('', { taskId: waiting.id, metadata: { confirmation: { approved: true } } });
    approve.parts = [];
    const done = (await client.sendMessage(send(approve))) as Task;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(done)).toBe('ok');
    const managed = await server.built.manager.require(done.id);
    const events = await managed.log.range(0, managed.log.length);
    expect(JSON.stringify(events.filter((event) => event.kind === 'ObservationEvent'))).toContain('risky-step');
  });

  it('records a plain-text answer to a confirmation as the refusal, with that reason', async () => {
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf build' } }] }, finishReply('fine'));
    const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const waiting = (await client.sendMessage(send(userMessage('Clean up', { metadata: { conversation } })))) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const done = (await client.sendMessage(send(userMessage('not today', { taskId: waiting.id })))) as Task;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const managed = await server.built.manager.require(done.id);
    const events = await managed.log.range(0, managed.log.length);
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'UserRejectObservation', rejection_reason: 'not today' }),
    );
  });

  it('keeps the card public and the endpoint behind the session key when the server has keys', async () => {
    const keyed = await startTestServer({ llm: server.llm, config: { apiKeys: ['a2a-key'] } });
    try {
      const card = (await (await fetch(`${keyed.url}/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
      expect(card.securitySchemes).toEqual({
        sessionKey: {
          apiKeySecurityScheme: expect.objectContaining({ location: 'header', name: 'X-Session-API-Key' }),
        },
      });
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: randomUUID() } });
      const headers = { 'content-type': 'application/json' };
      expect((await fetch(`${keyed.url}/api/a2a`, { method: 'POST', headers, body })).status).toBe(401);
      const keyedClient = await new ClientFactory().createFromUrl(keyed.url);
      await expect(
        keyedClient.getTask(
          { tenant: '', id: randomUUID(), historyLength: undefined },
          { serviceParameters: { 'X-Session-API-Key': 'a2a-key' } },
        ),
      ).rejects.toMatchObject({ name: 'TaskNotFoundError' });
    } finally {
      await keyed.built.close();
      await removeDir(keyed.dataDir);
    }
  });

  it('runs tasks that bring no agent on the server default, whose tools are the card skills', async () => {
    const withDefault = await startTestServer({
      llm: server.llm,
      config: { a2aConversation: createRequest(server.llm) as ServerConfigInput['a2aConversation'] },
    });
    try {
      const defaultClient = await new ClientFactory().createFromUrl(withDefault.url);
      const card = await defaultClient.getAgentCard();
      expect(card.skills.map((skill) => skill.id)).toEqual(['terminal']);
      server.llm.push(finishReply('from the default'));
      const task = (await defaultClient.sendMessage(send(userMessage('Hi', { metadata: {} })))) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(textOf(task)).toBe('from the default');
    } finally {
      await withDefault.built.close();
      await removeDir(withDefault.dataDir);
    }
  });

  it('answers errors as JSON-RPC errors with the spec codes', async () => {
    await expect(client.getTask({ tenant: '', id: randomUUID(), historyLength: undefined })).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });
    await expect(client.getTask({ tenant: '', id: 'not-a-task', historyLength: undefined })).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });
    const rpc = async (
      body: string,
    ): Promise<{ status: number; json: { error?: { code: number; message: string } } }> => {
      const response = await fetch(`${server.url}/api/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return {
        status: response.status,
        json: (await response.json()) as { error?: { code: number; message: string } },
      };
    };
    const call = (method: string, params: unknown) => rpc(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }));
    expect((await rpc('{ not json')).json.error?.code).toBe(-32700);
    expect((await rpc(JSON.stringify({ hello: 'world' }))).json.error?.code).toBe(-32600);
    expect((await call('Nope', {})).json.error?.code).toBe(-32601);
    const noAgent = await call('SendMessage', {
      message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] },
    });
    expect(noAgent.status).toBe(200);
    expect(noAgent.json.error?.code).toBe(-32602);
    expect(noAgent.json.error?.message).toContain('metadata.conversation');
    expect((await call('GetTask', {})).json.error?.code).toBe(-32602);
    expect((await call('CreateTaskPushNotificationConfig', { taskId: 'x' })).json.error?.code).toBe(-32003);

    server.llm.push(finishReply('done'));
    const done = (await client.sendMessage(send(userMessage('Quick')))) as Task;
    expect((await call('CancelTask', { id: done.id })).json.error?.code).toBe(-32002);
    expect((await call('SubscribeToTask', { id: done.id })).json.error?.code).toBe(-32004);
  });
});
