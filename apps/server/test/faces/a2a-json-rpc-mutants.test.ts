// The JSON-RPC 2.0 binding of the A2A face at the edges the official client never reaches: request ids that are
// falsy but present (0, ''), malformed envelopes answered with the id they carried, a body that is not JSON, a batch
// that opens with a streaming method, the A2A-Version header's major.minor reading, and the params each method
// refuses (with the spec's codes, and messages naming the field) before anything is started.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function post(body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${fixture.server.url}/api/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

const call = async (request: Record<string, unknown>, headers: Record<string, string> = {}): Promise<RpcReply> =>
  (await post(JSON.stringify({ jsonrpc: '2.0', ...request }), headers)).json as RpcReply;

describe('A2A JSON-RPC envelopes at their edges', () => {
  it('answers a request with the id it carried, even a falsy one', async () => {
    const missing = randomUUID();
    for (const id of [0, '']) {
      const reply = await call({ id, method: 'GetTask', params: { id: missing } });
      expect(reply).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32001 } });
    }
  });

  it('answers a malformed request with its id when the id is a string or a number, else with null', async () => {
    for (const [id, expected] of [
      ['req-1', 'req-1'],
      [7, 7],
      [{ not: 'an id' }, null],
    ] as const) {
      const { json } = await post(JSON.stringify({ jsonrpc: '1.0', id, method: 'GetTask' }));
      expect(json).toEqual({
        jsonrpc: '2.0',
        id: expected,
        error: { code: -32600, message: expect.stringMatching(/^Not a JSON-RPC 2\.0 request: \S/) },
      });
    }
    // A method must be named: an empty one is no request at all, not an unknown method.
    expect(await call({ id: 3, method: '' })).toMatchObject({ id: 3, error: { code: -32600 } });
  });

  it('answers a body that is not JSON with a parse error, in a JSON-RPC 2.0 envelope', async () => {
    const { status, json } = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(status).toBe(200);
    expect(json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
  });

  it('refuses a streaming method that opens a batch, answering the batch as an array', async () => {
    const missing = randomUUID();
    const { json } = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'sub', method: 'SubscribeToTask', params: { id: missing } },
        { jsonrpc: '2.0', id: 'get', method: 'GetTask', params: { id: missing } },
      ]),
    );
    expect((json as RpcReply[]).map((reply) => [reply.id, reply.error?.code])).toEqual([
      ['sub', -32600],
      ['get', -32001],
    ]);
  });

  it('serves a request whose A2A-Version names only the major version 1, and refuses 1.1', async () => {
    const missing = randomUUID();
    const request = { id: 1, method: 'GetTask', params: { id: missing } };
    expect((await call(request, { 'A2A-Version': '1' })).error?.code).toBe(-32001);
    expect((await call(request, { 'A2A-Version': '1.1' })).error).toMatchObject({
      code: -32009,
      message: expect.stringContaining('1.1'),
    });
  });
});

describe('A2A params refused before anything runs', () => {
  it('names the field at fault, or the params themselves when they are not an object', async () => {
    expect((await call({ id: 1, method: 'GetTask', params: {} })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^GetTask: params\.id: /),
    });
    expect((await call({ id: 2, method: 'GetTask', params: 5 })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^GetTask: params: /),
    });
    expect((await call({ id: 3, method: 'ListTasks', params: 0 })).error?.code).toBe(-32602);
  });

  it('refuses an empty task id, an empty message id and a page of no tasks as invalid params', async () => {
    const { server } = fixture;
    const before = (await server.built.manager.list()).length;
    expect((await call({ id: 1, method: 'GetTask', params: { id: '' } })).error?.code).toBe(-32602);
    const message = { messageId: '', role: 'ROLE_USER', parts: [{ text: 'hello' }] };
    expect((await call({ id: 2, method: 'SendMessage', params: { message } })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('messageId'),
    });
    expect((await server.built.manager.list()).length).toBe(before);
    expect((await call({ id: 3, method: 'ListTasks', params: { pageSize: 0 } })).error?.code).toBe(-32602);
  });

  it('takes a statusTimestampAfter with a UTC offset', async () => {
    const reply = await call({
      id: 1,
      method: 'ListTasks',
      params: { statusTimestampAfter: '2020-01-01T00:00:00+02:00' },
    });
    expect(reply.error).toBeUndefined();
    expect(reply.result).toMatchObject({ tasks: expect.any(Array) });
  });
});
