// JSON-RPC 2.0 envelopes the official client (`@a2a-js/sdk`) never sends but the binding must answer: batches (an
// array of calls, answered with an array in order) and notifications (calls without an id, answered with nothing).
// What they did is then read back with the SDK client.
import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply } from '../helpers.js';
import { type A2aFixture, startA2aFixture } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

interface RpcReply {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

async function post(body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${fixture.server.url}/api/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const wireMessage = (text: string, contextId: string) => ({
  messageId: randomUUID(),
  contextId,
  role: 'ROLE_USER',
  parts: [{ text }],
});

describe('A2A JSON-RPC envelopes', () => {
  it('answers a batch with one response per call, in order, and carries out each call', async () => {
    const contextId = randomUUID();
    const missing = randomUUID();
    fixture.server.llm.push(finishReply('batched'));
    const { status, text } = await post([
      {
        jsonrpc: '2.0',
        id: 'send',
        method: 'SendMessage',
        params: { message: wireMessage('From a batch', contextId) },
      },
      { jsonrpc: '2.0', id: 'get', method: 'GetTask', params: { id: missing } },
      { jsonrpc: '2.0', id: 'stream', method: 'SendStreamingMessage', params: { message: wireMessage('x', '') } },
      { hello: 'not a request' },
      { jsonrpc: '2.0', id: 'nope', method: 'NoSuchMethod' },
    ]);
    expect(status).toBe(200);
    const replies = JSON.parse(text) as RpcReply[];
    expect(replies.map((reply) => reply.id)).toEqual(['send', 'get', 'stream', null, 'nope']);
    expect(replies.map((reply) => reply.error?.code)).toEqual([undefined, -32001, -32600, -32600, -32601]);
    expect(replies[0]?.result).toMatchObject({ task: { id: contextId, status: { state: 'TASK_STATE_COMPLETED' } } });

    const task = await fixture.client.getTask({ tenant: '', id: contextId, historyLength: undefined });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]?.parts[0]?.content?.value).toBe('batched');
    // The streaming call was refused before it ran: only the batch's SendMessage reached the model.
    expect(fixture.server.llm.requests.filter((body) => JSON.stringify(body).includes('"x"'))).toEqual([]);
  });

  it('answers an empty batch with a single Invalid Request error', async () => {
    const { status, text } = await post([]);
    expect(status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('carries out a notification and answers nothing', async () => {
    const contextId = randomUUID();
    fixture.server.llm.push(finishReply('noted'));
    const { status, text } = await post({
      jsonrpc: '2.0',
      method: 'SendMessage',
      params: { message: wireMessage('No reply wanted', contextId) },
    });
    expect(status).toBe(204);
    expect(text).toBe('');
    const task = await fixture.client.getTask({ tenant: '', id: contextId, historyLength: undefined });
    expect(task.history[0]?.parts[0]?.content?.value).toBe('No reply wanted');
  });

  it('answers a batch of notifications only with nothing, and one with an id among them with that one', async () => {
    const missing = randomUUID();
    const silent = await post([
      { jsonrpc: '2.0', method: 'GetTask', params: { id: missing } },
      { jsonrpc: '2.0', method: 'ListTasks', params: {} },
    ]);
    expect(silent).toEqual({ status: 204, text: '' });
    const one = await post([
      { jsonrpc: '2.0', method: 'GetTask', params: { id: missing } },
      { jsonrpc: '2.0', id: 9, method: 'GetTask', params: { id: missing } },
    ]);
    expect((JSON.parse(one.text) as RpcReply[]).map((reply) => [reply.id, reply.error?.code])).toEqual([[9, -32001]]);
  });

  it('names the parameter a call got wrong, and refuses params that are not an object', async () => {
    const { text } = await post([
      { jsonrpc: '2.0', id: 'no-id', method: 'GetTask', params: {} },
      { jsonrpc: '2.0', id: 'nested', method: 'SendMessage', params: { message: { parts: [] } } },
      { jsonrpc: '2.0', id: 'not-an-object', method: 'ListTasks', params: false },
    ]);
    const replies = JSON.parse(text) as RpcReply[];
    expect(replies.map((reply) => reply.error?.code)).toEqual([-32602, -32602, -32602]);
    expect(replies[0]?.error?.message).toMatch(/^GetTask: params\.id: /);
    expect(replies[1]?.error?.message).toMatch(/^SendMessage: params\.message\.messageId: /);
    expect(replies[2]?.error?.message).toMatch(/^ListTasks: params: /);
  });
});
