// Error details as the official client (`@a2a-js/sdk`) surfaces them: every A2A error carries a
// `google.rpc.ErrorInfo` (reason and domain) in `error.data` (§9.5), which the SDK keeps on the error it raises.
import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

const errorInfo = (reason: string) => ({
  data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }],
});

describe('A2A error details, driven by @a2a-js/sdk', () => {
  it('names the reason of each A2A error in its ErrorInfo', async () => {
    const { client, server } = fixture;
    await expect(client.getTask({ tenant: '', id: randomUUID(), historyLength: undefined })).rejects.toMatchObject({
      name: 'TaskNotFoundError',
      ...errorInfo('TASK_NOT_FOUND'),
    });
    server.llm.push(finishReply('done'));
    const task = (await client.sendMessage(send(userMessage([textPart('Quick one')])))) as Task;
    await expect(client.cancelTask({ tenant: '', id: task.id, metadata: undefined })).rejects.toMatchObject({
      name: 'TaskNotCancelableError',
      ...errorInfo('TASK_NOT_CANCELABLE'),
    });
    await expect(client.resubscribeTask({ tenant: '', id: task.id }).next()).rejects.toMatchObject({
      name: 'UnsupportedOperationError',
      ...errorInfo('UNSUPPORTED_OPERATION'),
    });
    await expect(
      client.sendMessage(send(userMessage([textPart('x')], { taskId: task.id, contextId: randomUUID() }))),
    ).rejects.toMatchObject({ name: 'RequestMalformedError', ...errorInfo('INVALID_PARAMS') });
  });

  it('leaves the plain JSON-RPC errors without A2A details', async () => {
    const response = await fetch(`${fixture.server.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'NoSuchMethod' }),
    });
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: expect.stringContaining('NoSuchMethod') },
    });
  });
});
