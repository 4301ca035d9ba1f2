// What the card says the agent does not do, checked with the official client (`@a2a-js/sdk`): the extended card and
// push notifications are refused with the errors §3.3.4 names, and a client of another protocol version gets
// VersionNotSupported (-32009) rather than "method not found".
import { randomUUID } from 'node:crypto';
import type { AgentCard, TaskPushNotificationConfig } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

const pushConfig: TaskPushNotificationConfig = {
  tenant: '',
  id: 'hook-1',
  taskId: '',
  url: 'http://127.0.0.1:9/hook',
  token: 'secret',
  authentication: undefined,
};

describe('A2A capabilities the card leaves out, driven by @a2a-js/sdk', () => {
  it('answers GetExtendedAgentCard with UnsupportedOperation, as the card declares no extended card', async () => {
    const card = await fixture.client.getAgentCard();
    expect(card.capabilities?.extendedAgentCard).toBe(false);
    await expect(fixture.client.transport.getExtendedAgentCard({ tenant: '' })).rejects.toMatchObject({
      name: 'UnsupportedOperationError',
      message: expect.stringContaining('extended'),
    });
  });

  it('refuses a message that asks for push notifications, starting no task', async () => {
    const { server } = fixture;
    // The client applies its configured push config to every message it sends.
    const pushing = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        clientConfig: { pushNotificationConfig: pushConfig },
      }),
    ).createFromUrl(server.url);
    const before = (await server.built.manager.list()).length;
    await expect(pushing.sendMessage(send(userMessage([textPart('Tell me when done')])))).rejects.toMatchObject({
      name: 'PushNotificationNotSupportedError',
      message: expect.stringContaining('taskPushNotificationConfig'),
    });
    expect((await server.built.manager.list()).length).toBe(before);
  });

  it('refuses every push notification config method with PushNotificationNotSupported', async () => {
    const { transport } = fixture.client;
    const taskId = randomUUID();
    await expect(transport.createTaskPushNotificationConfig({ ...pushConfig, taskId })).rejects.toMatchObject({
      name: 'PushNotificationNotSupportedError',
    });
    await expect(transport.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'hook-1' })).rejects.toMatchObject({
      name: 'PushNotificationNotSupportedError',
    });
    await expect(
      transport.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 10, pageToken: '' }),
    ).rejects.toMatchObject({ name: 'PushNotificationNotSupportedError' });
    await expect(
      fixture.client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: 'hook-1' }),
    ).rejects.toMatchObject({ name: 'PushNotificationNotSupportedError' });
  });

  it('answers an A2A 0.3 client with VersionNotSupported', async () => {
    const card = await fixture.client.getAgentCard();
    const legacyCard: AgentCard = {
      ...card,
      supportedInterfaces: card.supportedInterfaces.map((entry) => ({ ...entry, protocolVersion: '0.3' })),
    };
    const legacy = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    }).createFromAgentCard(legacyCard);
    expect(legacy.protocolVersion).toBe('0.3');
    await expect(legacy.sendMessage(send(userMessage([textPart('Hello from 0.3')])))).rejects.toMatchObject({
      name: 'VersionNotSupportedError',
    });
    await expect(legacy.getTask({ tenant: '', id: randomUUID(), historyLength: undefined })).rejects.toMatchObject({
      name: 'VersionNotSupportedError',
    });
  });

  it('answers a request for a protocol version it does not speak (A2A-Version) with VersionNotSupported', async () => {
    const { server } = fixture;
    // A client of a later protocol version: the same calls, another A2A-Version header.
    const later: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('A2A-Version', '2.0');
      return fetch(input, { ...init, headers });
    };
    const client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: later })],
    }).createFromUrl(server.url);
    const before = (await server.built.manager.list()).length;
    await expect(client.sendMessage(send(userMessage([textPart('Hello from 2.0')])))).rejects.toMatchObject({
      name: 'VersionNotSupportedError',
      message: expect.stringContaining('2.0'),
    });
    expect((await server.built.manager.list()).length).toBe(before);
    const stream = client.sendMessageStream(send(userMessage([textPart('Stream from 2.0')])));
    await expect(stream.next()).rejects.toMatchObject({ name: 'VersionNotSupportedError' });
  });
});
