// `sendMessage({ id })`: a caller's own id for the message it sends (an A2A client's `messageId`), kept as the
// MessageEvent's id so the message can be found by it; an id that cannot name an event file, or that the log already
// holds, is refused with InvalidMessageError before anything is recorded.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Conversation, createOfflineLLM, InvalidMessageError, isMessageId } from '../src/index.js';

let workspace: string;
let store: FileStore;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'x-send-message-id-'));
  store = createMemoryFileStore();
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

async function create() {
  const events: AnyEvent[] = [];
  const conversation = await Conversation.create({
    agent: new Agent({ llm: createOfflineLLM({ script: [] }), tools: [] }),
    store,
    workspace,
    onEvent: (event) => events.push(event),
  });
  return { conversation, events };
}

const userMessages = (events: readonly AnyEvent[]) =>
  events.filter((event) => event.kind === 'MessageEvent' && event.source === 'user');

describe('sendMessage with its own id', () => {
  it('records the message under the id given, which the log finds it by, also after a resume', async () => {
    const { conversation, events } = await create();
    const id = '6f1c2a3b-4d5e-4f60-8a71-92b3c4d5e6f7';
    await conversation.sendMessage('hello', { id });
    expect(userMessages(events).map((event) => event.id)).toEqual([id]);
    const index = conversation.log.indexOf(id);
    expect((await conversation.log.get(index)).kind).toBe('MessageEvent');
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: new Agent({ llm: createOfflineLLM({ script: [] }), tools: [] }),
      store,
    });
    expect((await resumed.log.getById(id)).kind).toBe('MessageEvent');
    await resumed.close();
  });

  it('records a message sent without an id under a fresh one', async () => {
    const { conversation, events } = await create();
    await conversation.sendMessage('no id of its own');
    const [recorded] = userMessages(events);
    expect(recorded?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await conversation.close();
  });

  it('refuses an id the log already holds, recording nothing the second time', async () => {
    const { conversation, events } = await create();
    await conversation.sendMessage('once', { id: 'msg-1' });
    const error = await conversation.sendMessage('twice', { id: 'msg-1' }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidMessageError);
    expect((error as Error).message).toContain("an event with id 'msg-1' is already in its log");
    expect(userMessages(events)).toHaveLength(1);
    await conversation.close();
  });

  it.each([
    ['', 'empty'],
    ['a/b', 'a path separator'],
    ['..', 'a dot first'],
    ['__root__', 'the reserved root id'],
    ['x'.repeat(129), 'over 128 characters'],
    ['two words', 'a blank'],
  ])('refuses the id %j (%s), recording nothing', async (id) => {
    const { conversation, events } = await create();
    const error = await conversation.sendMessage('hello', { id }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidMessageError);
    expect((error as Error).message).toContain(
      `its id ${JSON.stringify(id)} is not 1-128 letters, digits, '.', '_' or '-' starting with a letter or digit`,
    );
    expect(userMessages(events)).toHaveLength(0);
    await conversation.close();
  });

  it('takes 1 to 128 characters, and tells which ids it takes (isMessageId)', async () => {
    const { conversation, events } = await create();
    const id = `A${'b'.repeat(127)}`;
    await conversation.sendMessage('hello', { id });
    expect(userMessages(events).map((event) => event.id)).toEqual([id]);
    expect([isMessageId(id), isMessageId('9.x_y-z'), isMessageId('7'), isMessageId(`${id}c`), isMessageId(7)]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    await conversation.close();
  });
});
