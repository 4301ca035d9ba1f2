// Requests the A2A face must refuse or answer in a particular way at the envelope: a body over the server's size
// limit (well-formed, so not a parse error: HTTP 413 and a JSON-RPC error that names the limit, which the official
// client `@a2a-js/sdk` reports with that message), and notifications (calls without an id) to the streaming methods,
// which JSON-RPC answers with nothing, single or in a batch, like every other method.
import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply, waitFor } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

const BODY_LIMIT = 8192;

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture({ bodyLimit: BODY_LIMIT });
});
afterAll(async () => {
  await fixture.stop();
});

async function post(body: unknown): Promise<{ status: number; contentType: string | null; text: string }> {
  const response = await fetch(`${fixture.server.url}/api/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify(body),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

const wireMessage = (text: string, contextId: string) => ({
  messageId: randomUUID(),
  contextId,
  role: 'ROLE_USER',
  parts: [{ text }],
});

async function taskState(id: string): Promise<TaskState | undefined> {
  const task = await fixture.client.getTask({ tenant: '', id, historyLength: undefined }).catch(() => undefined);
  return task?.status?.state;
}

describe('A2A request bodies over the size limit', () => {
  it('answers 413 with an Invalid Request error naming the limit, and starts nothing', async () => {
    const { server } = fixture;
    const before = (await server.built.manager.list()).length;
    const contextId = randomUUID();
    const { status, contentType, text } = await post({
      jsonrpc: '2.0',
      id: 7,
      method: 'SendMessage',
      params: { message: wireMessage('x'.repeat(BODY_LIMIT * 2), contextId) },
    });
    expect(status).toBe(413);
    expect(contentType).toMatch(/^application\/json/);
    expect(JSON.parse(text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining(`${BODY_LIMIT} bytes`) },
    });
    expect((await server.built.manager.list()).length).toBe(before);
    expect(await taskState(contextId)).toBeUndefined();
  });

  it('lets the official client report the limit, for a send and for a stream alike', async () => {
    const { client } = fixture;
    const large = () => send(userMessage([textPart('y'.repeat(BODY_LIMIT * 64))]));
    const refusal = { name: 'RequestMalformedError', message: expect.stringContaining(`limit of ${BODY_LIMIT} bytes`) };
    await expect(client.sendMessage(large())).rejects.toMatchObject(refusal);
    await expect(client.sendMessageStream(large()).next()).rejects.toMatchObject(refusal);
  });

  it('still carries out a request just under the limit', async () => {
    const contextId = randomUUID();
    fixture.server.llm.push(finishReply('fits'));
    const { status, text } = await post({
      jsonrpc: '2.0',
      id: 'small',
      method: 'SendMessage',
      params: { message: wireMessage('z'.repeat(BODY_LIMIT / 2), contextId) },
    });
    expect(status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ id: 'small', result: { task: { id: contextId } } });
  });
});

describe('A2A notifications to the streaming methods', () => {
  it('carries out a SendStreamingMessage notification and answers nothing, not a stream', async () => {
    const contextId = randomUUID();
    fixture.server.llm.push(finishReply('streamed unseen'));
    const answer = await post({
      jsonrpc: '2.0',
      method: 'SendStreamingMessage',
      params: { message: wireMessage('Nobody listens', contextId) },
    });
    expect(answer).toEqual({ status: 204, contentType: null, text: '' });
    await waitFor(async () => (await taskState(contextId)) === TaskState.TASK_STATE_COMPLETED);
    const task = await fixture.client.getTask({ tenant: '', id: contextId, historyLength: undefined });
    expect(task.history[0]?.parts[0]?.content?.value).toBe('Nobody listens');
    expect(task.artifacts[0]?.parts[0]?.content?.value).toBe('streamed unseen');
  });

  it('answers a SubscribeToTask notification with nothing', async () => {
    const contextId = randomUUID();
    fixture.server.llm.push(finishReply('done'));
    await post({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: wireMessage('Hi', contextId) } });
    for (const id of [contextId, randomUUID()]) {
      expect(await post({ jsonrpc: '2.0', method: 'SubscribeToTask', params: { id } })).toEqual({
        status: 204,
        contentType: null,
        text: '',
      });
    }
  });

  it('carries out a streaming notification in a batch too, answering only the calls with an id', async () => {
    const contextId = randomUUID();
    const missing = randomUUID();
    fixture.server.llm.push(finishReply('batched stream'));
    const { status, text } = await post([
      { jsonrpc: '2.0', method: 'SendStreamingMessage', params: { message: wireMessage('In a batch', contextId) } },
      { jsonrpc: '2.0', id: 'get', method: 'GetTask', params: { id: missing } },
      { jsonrpc: '2.0', id: 'sub', method: 'SubscribeToTask', params: { id: missing } },
    ]);
    expect(status).toBe(200);
    const replies = JSON.parse(text) as { id: unknown; error?: { code: number } }[];
    expect(replies.map((reply) => [reply.id, reply.error?.code])).toEqual([
      ['get', -32001],
      ['sub', -32600],
    ]);
    await waitFor(async () => (await taskState(contextId)) === TaskState.TASK_STATE_COMPLETED);
  });
});
