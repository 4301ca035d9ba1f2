// A message's data parts in the task's history, driven by `@a2a-js/sdk`'s client against a real server: the agent
// reads them as JSON text (the event records that text), and tasks/get gives the message back with its text and data
// parts as sent, kept beside the conversation's event files (`x_a2a_parts.json`), which a fork copies.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Part, Task } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
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

const dataPart = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

/** The user messages of a task's history, each as its parts' kinds and values. */
function userParts(task: Task): Array<Array<[string, unknown]>> {
  return task.history
    .filter((message) => message.role === 1)
    .map((message) =>
      message.parts.map((part) => [part.content?.$case ?? '', part.content?.value] as [string, unknown]),
    );
}

describe('A2A data parts in the task history, driven by @a2a-js/sdk', () => {
  it('gives back the text and data parts of a message as sent, also in a fork of the task', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('Sorted.'));
    const order = { items: [{ sku: 'A-17', quantity: 3 }], rush: true };
    const sent = userMessage([textPart('Check this order:'), dataPart(order)]);
    const task = (await client.sendMessage(send(sent))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const expected = [
      ['text', 'Check this order:'],
      ['data', order],
    ];
    expect(userParts(task)).toEqual([expected]);
    const got = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(userParts(got)).toEqual([expected]);
    expect(got.history.find((message) => message.role === 1)?.messageId).toBe(sent.messageId);

    const fork = await server.call('POST', `/api/conversations/${task.id}/fork`, {});
    expect(fork.status).toBe(201);
    const forkId = (fork.json as { id: string }).id;
    expect(existsSync(join(server.dataDir, 'conversations', forkId.replace(/-/g, ''), 'x_a2a_parts.json'))).toBe(true);
    const forked = await client.getTask({ tenant: '', id: forkId, historyLength: undefined });
    expect(userParts(forked)).toEqual([expected]);
  });

  it('keeps the history of a text-only message as its text, with no side file', async () => {
    const { client, server } = fixture;
    server.llm.push(finishReply('Fine.'));
    const task = (await client.sendMessage(send(userMessage([textPart('Just words')])))) as Task;
    expect(userParts(task)).toEqual([[['text', 'Just words']]]);
    const hex = task.id.replace(/-/g, '');
    expect(existsSync(join(server.dataDir, 'conversations', hex, 'x_a2a_parts.json'))).toBe(false);
  });
});
