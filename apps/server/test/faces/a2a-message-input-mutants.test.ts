// What the agent is given for an A2A message, at the edges, through the official client (`@a2a-js/sdk`): data parts
// labelled with their media type, falsy JSON kept as it is, file parts refused with a message that says exactly what
// the part was, a part with no content refused as invalid, wildcard output modes accepted, and referenced tasks
// named with their outcome (or the lack of one).
import { randomUUID } from 'node:crypto';
import type { Part, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, finishReply } from '../helpers.js';
import { type A2aFixture, send, startA2aFixture, textPart, userMessage, userTextsSeen } from './a2a-client-support.js';

let fixture: A2aFixture;

beforeAll(async () => {
  fixture = await startA2aFixture();
});
afterAll(async () => {
  await fixture.stop();
});

const part = (content: Part['content'], extra: { filename?: string; mediaType?: string } = {}): Part => ({
  content,
  metadata: undefined,
  filename: extra.filename ?? '',
  mediaType: extra.mediaType ?? '',
});

/** Sends one message and returns the last user text the model was given for it. */
async function seenFor(parts: Part[], ids: { referenceTaskIds?: string[] } = {}): Promise<string> {
  const { client, server } = fixture;
  server.llm.push(finishReply('ok'));
  const task = (await client.sendMessage(send(userMessage(parts, ids)))) as Task;
  expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  return userTextsSeen(server.llm).at(-1) ?? '';
}

describe('A2A message input at the edges, driven by @a2a-js/sdk', () => {
  it('labels a data part with its media type, application/json when it has none', async () => {
    const order = { sku: 'C-3' };
    expect(await seenFor([part({ $case: 'data', value: order })])).toBe(
      `Data (application/json):\n\`\`\`json\n${JSON.stringify(order, null, 2)}\n\`\`\``,
    );
    const typed = await seenFor([
      part({ $case: 'data', value: order }, { mediaType: 'application/vnd.acme.order+json' }),
    ]);
    expect(typed.startsWith('Data (application/vnd.acme.order+json):\n')).toBe(true);
  });

  it('hands over falsy JSON data as it is, not as null', async () => {
    const seen = await seenFor([part({ $case: 'data', value: false })]);
    expect(/```json\n([\s\S]*?)\n```/.exec(seen)?.[1]).toBe('false');
  });

  it('says what a refused file part was: bytes or a url, with its name and type only when it has them', async () => {
    const { client } = fixture;
    await expect(
      client.sendMessage(send(userMessage([part({ $case: 'raw', value: Buffer.from('%PDF') })]))),
    ).rejects.toMatchObject({
      name: 'ContentTypeNotSupportedError',
      message: expect.stringContaining('message.parts[0]: a file part (raw bytes) is not supported'),
    });
    const link = part({ $case: 'url', value: 'https://example.invalid/a.pdf' }, { filename: 'a.pdf' });
    await expect(client.sendMessage(send(userMessage([textPart('See'), link])))).rejects.toMatchObject({
      name: 'ContentTypeNotSupportedError',
      message: expect.stringContaining("message.parts[1]: a file part ('a.pdf') (a url) is not supported"),
    });
  });

  it('refuses a part with no content as invalid params, naming the part', async () => {
    const response = await fetch(`${fixture.server.url}/api/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }, {}] } },
      }),
    });
    const { error } = (await response.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('message.parts[1]: a part needs one of text, data, raw or url');
  });

  it.each([['*/*'], ['text/*'], ['TEXT/PLAIN']])(
    'serves a client whose only accepted output mode is %s',
    async (mode) => {
      const { server } = fixture;
      const client = await new ClientFactory(
        ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
          clientConfig: { acceptedOutputModes: [mode] },
        }),
      ).createFromUrl(server.url);
      server.llm.push(finishReply('Served.'));
      const task = (await client.sendMessage(send(userMessage([textPart('Hello')])))) as Task;
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    },
  );

  it('tells the agent the state and final response of a referenced task that completed', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('The answer is 42.'));
    const done = (await client.sendMessage(send(userMessage([textPart('Compute it')])))) as Task;
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const seen = await seenFor([textPart('Build on that')], { referenceTaskIds: [done.id] });
    expect(seen).toBe(`Build on that\n\nReferenced task ${done.id} (TASK_STATE_COMPLETED): The answer is 42.`);
  });

  it('tells the agent a referenced task has no response yet, and names the reference that is missing', async () => {
    const { client, server } = fixture;
    const idle = await createConversation(server);
    const seen = await seenFor([textPart('Use the other task')], { referenceTaskIds: [idle] });
    expect(seen).toMatch(
      new RegExp(`^Use the other task\\n\\nReferenced task ${idle} \\(\\w+\\): \\(no response yet\\)$`),
    );
    const missing = randomUUID();
    await expect(
      client.sendMessage(send(userMessage([textPart('x')], { referenceTaskIds: [idle, missing] }))),
    ).rejects.toMatchObject({
      name: 'TaskNotFoundError',
      message: expect.stringContaining(`message.referenceTaskIds[1]: Task not found: '${missing}'`),
    });
  });
});
