// How the A2A face applies an incoming message, judged by the official client (`@a2a-js/sdk`) against a real server:
// a task id and a context id agree when they name one conversation (a UUID and its hex spelling do); a context id
// alone continues its conversation even where no default agent could create one; a message with nothing to say is
// refused; a plain-text answer to a confirmation is the refusal only, not also a new turn, and is its reason when the
// refusal gives none; a continued task runs once, its model call held at a gate; and a new task's stream opens with
// the task holding the user's turn.
import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer } from '../helpers.js';
import { collect, send, textPart, useA2aFixture, userMessage, userTextsSeen } from './a2a-client-support.js';

const fixture = useA2aFixture();

const userTurns = (task: Task): unknown[] =>
  task.history.filter((message) => message.role === 1).map((message) => message.parts[0]?.content?.value);

describe('A2A messages applied, driven by @a2a-js/sdk', () => {
  it('matches a task id and a context id as ids: a UUID and its hex spelling agree, other ids only when equal', async () => {
    const { client, server } = fixture;
    await expect(
      client.sendMessage(send(userMessage([textPart('Go on')], { taskId: 'job-7', contextId: 'job-7' }))),
    ).rejects.toMatchObject({ name: 'TaskNotFoundError', message: expect.stringContaining('job-7') });
    await expect(
      client.sendMessage(send(userMessage([textPart('Go on')], { taskId: 'job-7', contextId: 'job-8' }))),
    ).rejects.toMatchObject({ name: 'RequestMalformedError', message: expect.stringContaining('job-8') });

    server.llm.push(finishReply('one'), finishReply('two'));
    const task = (await client.sendMessage(send(userMessage([textPart('First')])))) as Task;
    const hex = task.id.replace(/-/g, '').toUpperCase();
    const next = (await client.sendMessage(
      send(userMessage([textPart('Second')], { taskId: task.id, contextId: hex })),
    )) as Task;
    expect(next.id).toBe(task.id);
    expect(userTurns(next)).toEqual(['First', 'Second']);
  });

  it('takes an empty taskId and contextId on the wire as none given: a new task', async () => {
    const { server } = fixture;
    server.llm.push(finishReply('fresh'));
    const response = await fetch(`${server.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: {
          message: { messageId: randomUUID(), taskId: '', contextId: '', role: 'ROLE_USER', parts: [{ text: 'Hi' }] },
        },
      }),
    });
    const reply = (await response.json()) as { result?: { task?: { id: string; status: { state: string } } } };
    expect(reply.result?.task?.status.state).toBe('TASK_STATE_COMPLETED');
    expect(reply.result?.task?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('continues a context on a server with no default agent, the create body given only once', async () => {
    const { server } = fixture;
    const bare = await startTestServer({ llm: server.llm });
    try {
      const client = await new ClientFactory().createFromUrl(bare.url);
      server.llm.push(finishReply('one'), finishReply('two'));
      const first = (await client.sendMessage(
        send({ ...userMessage([textPart('Begin')]), metadata: { conversation: createRequest(server.llm) } }),
      )) as Task;
      const next = (await client.sendMessage(
        send(userMessage([textPart('Carry on')], { contextId: first.contextId })),
      )) as Task;
      expect(next.id).toBe(first.id);
      expect(userTurns(next)).toEqual(['Begin', 'Carry on']);
      // A new task without a create body: refused, naming what to pass, and no conversation is made.
      const before = (await bare.built.manager.list()).length;
      await expect(client.sendMessage(send(userMessage([textPart('Start anew')])))).rejects.toMatchObject({
        name: 'RequestMalformedError',
        message: expect.stringContaining('message.metadata.conversation'),
      });
      expect((await bare.built.manager.list()).length).toBe(before);
    } finally {
      await bare.built.close();
      await removeDir(bare.dataDir);
    }
  });

  it('refuses a message with no text or data part, for a new task and for a task it continues', async () => {
    const { client, server } = fixture;
    const before = (await server.built.manager.list()).length;
    await expect(client.sendMessage(send(userMessage([])))).rejects.toMatchObject({
      name: 'RequestMalformedError',
      message: expect.stringContaining('message.parts'),
    });
    expect((await server.built.manager.list()).length).toBe(before);

    server.llm.push(finishReply('first'));
    const task = (await client.sendMessage(send(userMessage([textPart('Start')])))) as Task;
    const requests = server.llm.requests.length;
    await expect(client.sendMessage(send(userMessage([], { taskId: task.id })))).rejects.toMatchObject({
      name: 'RequestMalformedError',
      message: expect.stringContaining('message.parts'),
    });
    expect(server.llm.requests.length).toBe(requests);
  });

  it('refuses a message in the agent role rather than recording it as a user turn', async () => {
    const { client, server } = fixture;
    const before = (await server.built.manager.list()).length;
    const requests = server.llm.requests.length;
    const fromAgent = { ...userMessage([textPart('I am the agent')]), role: Role.ROLE_AGENT };
    await expect(client.sendMessage(send(fromAgent))).rejects.toMatchObject({
      name: 'RequestMalformedError',
      message: expect.stringContaining("params.message.role: 'ROLE_AGENT'"),
    });
    expect((await server.built.manager.list()).length).toBe(before);
    expect(server.llm.requests.length).toBe(requests);
  });

  it('takes a plain-text answer to a confirmation as the refusal only, not as a new user turn', async () => {
    const { client, server } = fixture;
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf dist' } }] }, finishReply('ok'));
    const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const waiting = (await client.sendMessage(
      send({ ...userMessage([textPart('Tidy up')]), metadata: { conversation } }),
    )) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const done = (await client.sendMessage(send(userMessage([textPart('leave it')], { taskId: waiting.id })))) as Task;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(userTurns(done)).toEqual(['Tidy up']);
    expect(userTextsSeen(server.llm)).toEqual(['Tidy up']);
  });

  it('takes an empty refusal reason as no reason: the answer text is the reason then', async () => {
    const { client, server } = fixture;
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf out' } }] }, finishReply('ok'));
    const conversation = createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const waiting = (await client.sendMessage(
      send({ ...userMessage([textPart('Clear out')]), metadata: { conversation } }),
    )) as Task;
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const refusal = userMessage([textPart('too risky today')], { taskId: waiting.id });
    await client.sendMessage(send({ ...refusal, metadata: { confirmation: { approved: false, reason: '' } } }));
    const managed = await server.built.manager.require(waiting.id);
    const events = await managed.log.range(0, managed.log.length);
    expect(events.filter((event) => event.kind === 'UserRejectObservation')).toEqual([
      expect.objectContaining({ rejection_reason: 'too risky today' }),
    ]);
  });

  it('runs a continued task once, the stream following it while the model is held', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('one'));
    const task = (await client.sendMessage(send(userMessage([textPart('First')])))) as Task;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    server.llm.push({ ...finishReply('two'), gate });
    const requests = server.llm.requests.length;
    const stream = client.sendMessageStream(send(userMessage([textPart('Second')], { taskId: task.id })));
    const first = await stream.next();
    const opening = first.value?.payload as { $case: 'task'; value: Task } | undefined;
    expect(opening?.$case).toBe('task');
    // The task the stream opens with already holds the turn that continued it.
    expect(userTurns(opening!.value)).toEqual(['First', 'Second']);
    await server.llm.waitForRequests(requests + 1);
    open();
    const rest = await collect({ [Symbol.asyncIterator]: () => stream });
    const last = rest.at(-1) as { $case: 'statusUpdate'; value: { status: Task['status'] } };
    expect(last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(server.llm.requests.length).toBe(requests + 1);
    const after = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(userTurns(after)).toEqual(['First', 'Second']);
  });

  it("opens a new task's stream with the task holding the user's turn, which the stream does not send again", async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('streamed'));
    const contextId = randomUUID();
    const items = await collect(client.sendMessageStream(send(userMessage([textPart('Hello there')], { contextId }))));
    const opening = items[0] as { $case: 'task'; value: Task };
    expect(opening.$case).toBe('task');
    expect(opening.value.id).toBe(contextId);
    expect(userTurns(opening.value)).toEqual(['Hello there']);
    const userMessages = items.filter(
      (item) =>
        item?.$case === 'statusUpdate' && (item.value as { status?: Task['status'] }).status?.message?.role === 1,
    );
    expect(userMessages).toEqual([]);
    const managed = await server.built.manager.require(contextId);
    const logged = await managed.log.range(0, managed.log.length);
    // The turn is logged as any face logs a user's text: not marked as a prompt-cache breakpoint.
    expect(logged.filter((event) => event.kind === 'MessageEvent' && event.source === 'user')).toEqual([
      expect.objectContaining({
        llm_message: expect.objectContaining({ content: [{ cache_prompt: false, type: 'text', text: 'Hello there' }] }),
      }),
    ]);
  });
});
