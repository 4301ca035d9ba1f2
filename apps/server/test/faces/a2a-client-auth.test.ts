// The session key as the official client (`@a2a-js/sdk`) meets it: the card stays public and names the scheme, a
// client without the key is refused on every call (HTTP 401) and changes nothing, and one that adds the key through
// the SDK's authentication handler can run, stream and read tasks.
import { randomUUID } from 'node:crypto';
import type { Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import {
  type AuthenticationHandler,
  ClientFactory,
  createAuthenticatingFetchWithRetry,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

const KEY = 'a2a-client-key';
let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture({ apiKeys: [KEY] });
});
afterAll(async () => {
  await fixture.stop();
});

/** Adds the key to every request; retries once with it after a 401 (how the SDK's handlers are meant to work). */
const sessionKey: AuthenticationHandler = {
  headers: async () => ({ 'X-Session-API-Key': KEY }),
  shouldRetryWithHeaders: async (_request, response) =>
    response.status === 401 ? { 'X-Session-API-Key': KEY } : undefined,
};

describe('A2A session key, driven by @a2a-js/sdk', () => {
  it('serves the card without the key, declaring the header the key goes in', async () => {
    const card = await fixture.client.getAgentCard();
    expect(card.securitySchemes.sessionKey?.scheme).toEqual({
      $case: 'apiKeySecurityScheme',
      value: expect.objectContaining({ location: 'header', name: 'X-Session-API-Key' }),
    });
    expect(card.securityRequirements.map((requirement) => Object.keys(requirement.schemes))).toEqual([['sessionKey']]);
  });

  it('refuses every call of a client without the key, and starts nothing', async () => {
    const { client, server } = fixture;
    const requests = server.llm.requests.length;
    // A JSON-RPC error (HTTP 401), which the SDK raises typed: the code, the status and the cause in `data`.
    const refused = { envelopeCode: -32000, data: { status: 401, reason: 'unauthorized' } };
    await expect(client.sendMessage(send(userMessage([textPart('Let me in')])))).rejects.toMatchObject(refused);
    await expect(client.sendMessageStream(send(userMessage([textPart('Me too')]))).next()).rejects.toMatchObject(
      refused,
    );
    await expect(client.getTask({ tenant: '', id: randomUUID(), historyLength: undefined })).rejects.toMatchObject(
      refused,
    );
    await expect(client.cancelTask({ tenant: '', id: randomUUID(), metadata: undefined })).rejects.toMatchObject(
      refused,
    );
    expect((await server.built.manager.list()).length).toBe(0);
    expect(server.llm.requests.length).toBe(requests);
  });

  it('runs, streams and reads tasks for a client whose fetch adds the key', async () => {
    const { server } = fixture;
    const fetchImpl = createAuthenticatingFetchWithRetry(fetch, sessionKey);
    const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] }).createFromUrl(
      server.url,
    );
    server.llm.push(finishReply('keyed answer'), finishReply('streamed answer'));
    const task = (await client.sendMessage(send(userMessage([textPart('With the key')])))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const states: unknown[] = [];
    for await (const event of client.sendMessageStream(
      send(userMessage([textPart('Stream it')], { contextId: task.contextId })),
    )) {
      if (event.payload?.$case === 'statusUpdate') states.push(event.payload.value.status?.state);
    }
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    const read = await client.getTask({ tenant: '', id: task.id, historyLength: 1 });
    expect(read.artifacts[0]?.parts[0]?.content?.value).toBe('streamed answer');
    expect(read.history).toHaveLength(1);
  });
});
