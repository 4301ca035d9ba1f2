// Media types through the official client (`@a2a-js/sdk`): data parts reach the agent as JSON, file parts (raw bytes
// or a URL) are refused with ContentTypeNotSupported (-32005) instead of being dropped unseen, and so is a client
// whose acceptedOutputModes rule out the text every answer is.
import type { Part, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishReply } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage, userTextsSeen } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

const dataPart = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

describe('A2A message parts, driven by @a2a-js/sdk', () => {
  it('declares the input modes it reads: text and JSON data', async () => {
    const card = await fixture.client.getAgentCard();
    expect(card.defaultInputModes).toEqual(['text/plain', 'application/json']);
  });

  it('starts a task from a data part alone, handing the agent the JSON', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('Sorted.'));
    const order = { items: [{ sku: 'A-17', quantity: 3 }], rush: true };
    const task = (await client.sendMessage(send(userMessage([dataPart(order)])))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const seen = userTextsSeen(server.llm).join('\n');
    const json = /```json\n([\s\S]*?)\n```/.exec(seen)?.[1];
    expect(JSON.parse(json ?? 'null')).toEqual(order);
  });

  it('keeps text and data parts of one message together, in order', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('ok'));
    await client.sendMessage(send(userMessage([textPart('Check this order:'), dataPart({ sku: 'B-2' })])));
    const seen = userTextsSeen(server.llm).at(-1) ?? '';
    expect(seen.startsWith('Check this order:')).toBe(true);
    expect(seen.indexOf('Check this order:')).toBeLessThan(seen.indexOf('"sku": "B-2"'));
  });

  it('refuses a file part of raw bytes as ContentTypeNotSupported, naming the part, and starts nothing', async () => {
    const { client, server } = fixture;
    const before = (await server.built.manager.list()).length;
    const file: Part = {
      content: { $case: 'raw', value: Buffer.from('col1,col2\n1,2\n') },
      metadata: undefined,
      filename: 'table.csv',
      mediaType: 'text/csv',
    };
    const refused = client.sendMessage(send(userMessage([textPart('Read the attachment'), file])));
    await expect(refused).rejects.toMatchObject({
      name: 'ContentTypeNotSupportedError',
      message: expect.stringMatching(/message\.parts\[1\].*table\.csv.*text\/csv/),
    });
    expect((await server.built.manager.list()).length).toBe(before);
  });

  it('refuses a file part given by URL as ContentTypeNotSupported, also when streaming', async () => {
    const { client } = fixture;
    const link: Part = {
      content: { $case: 'url', value: 'https://example.invalid/report.pdf' },
      metadata: undefined,
      filename: 'report.pdf',
      mediaType: 'application/pdf',
    };
    await expect(client.sendMessage(send(userMessage([link])))).rejects.toMatchObject({
      name: 'ContentTypeNotSupportedError',
    });
    const stream = client.sendMessageStream(send(userMessage([textPart('See the report'), link])));
    await expect(stream.next()).rejects.toMatchObject({ name: 'ContentTypeNotSupportedError' });
  });

  it('refuses a client that accepts no text answers, and serves one whose accepted modes include text', async () => {
    const { server } = fixture;
    const accepting = (acceptedOutputModes: string[]) =>
      new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { clientConfig: { acceptedOutputModes } }),
      ).createFromUrl(server.url);
    const before = (await server.built.manager.list()).length;
    const imagesOnly = await accepting(['image/png']);
    await expect(imagesOnly.sendMessage(send(userMessage([textPart('Draw me a cat')])))).rejects.toMatchObject({
      name: 'ContentTypeNotSupportedError',
      message: expect.stringMatching(/acceptedOutputModes.*image\/png/),
    });
    expect((await server.built.manager.list()).length).toBe(before);
    server.llm.push(finishReply('Described.'));
    const textToo = await accepting(['application/json', 'text/plain; charset=utf-8']);
    const task = (await textToo.sendMessage(send(userMessage([textPart('Describe a cat')])))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
