// `Conversation.editEvent` (README): a new branch whose copy of the event carries the new content, with the
// original's parent; the original stays; HEAD moves to the copy and is persisted; bad edits are typed errors with
// nothing written.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent, MessageEvent } from '@x/events';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  Conversation,
  ConversationClosedError,
  createOfflineLLM,
  finishTool,
  InvalidEventEditError,
  thinkTool,
  UnknownEventError,
} from '../src/index.js';

let workspace: string;
let store: FileStore;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'x-edit-event-'));
  store = createMemoryFileStore();
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

const options = () => ({
  agent: new Agent({
    llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }] }),
    tools: [thinkTool, finishTool],
  }),
  store,
  workspace,
});

/** A finished conversation of one user message (an image and text, prompt caching on, from bob) and its events. */
async function finished() {
  const conversation = await Conversation.create(options());
  await conversation.sendMessage(
    {
      role: 'user',
      content: [
        { type: 'image', image_urls: ['https://example.com/a.png'], cache_prompt: false },
        { type: 'text', text: 'Change some files', cache_prompt: true },
      ],
      thinking_blocks: [],
    },
    { sender: 'bob' },
  );
  await conversation.run();
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  const message = events.find((event): event is MessageEvent => event.kind === 'MessageEvent')!;
  return { conversation, events, message };
}

async function persistedLeaf(conversation: Conversation): Promise<unknown> {
  return (JSON.parse(await store.read(`${conversation.directory}/base_state.json`)) as Record<string, unknown>)
    .leaf_event_id;
}

describe('editEvent', () => {
  it("replaces a message's text only: its other parts and the text part's settings stay; HEAD moves, persisted", async () => {
    const { conversation, events, message } = await finished();
    const edited = await conversation.editEvent(message.id, 'Change other files');
    expect(edited).toMatchObject({ kind: 'MessageEvent', source: 'user', parent_id: message.parent_id });
    expect(edited.id).not.toBe(message.id);
    const content = (edited as MessageEvent).llm_message.content;
    expect(content).toHaveLength(2);
    expect(content).toMatchObject([
      { type: 'image', image_urls: ['https://example.com/a.png'] },
      { type: 'text', text: 'Change other files', cache_prompt: true },
    ]);
    expect(conversation.leafEventId).toBe(edited.id);
    expect(await persistedLeaf(conversation)).toBe(edited.id);
    expect((await conversation.activeBranch()).map((event) => event.id)).toEqual(
      [
        ...events.slice(0, events.indexOf(message)).filter((event) => event.kind !== 'ConversationStateUpdateEvent'),
        edited,
      ].map((event) => event.id),
    );
    // The original and what followed it stay in the log.
    expect(await conversation.log.getById(message.id)).toEqual(message);
    await conversation.close();
  });

  it('gives a message of text only one text part, and adds one to a message of an image only', async () => {
    const conversation = await Conversation.create(options());
    await conversation.sendMessage('Change some files');
    await conversation.sendMessage({
      role: 'user',
      content: [{ type: 'image', image_urls: ['https://example.com/b.png'], cache_prompt: false }],
      thinking_blocks: [],
    });
    const [text, image] = (await conversation.activeBranch()).filter((event) => event.kind === 'MessageEvent');
    const textCopy = (await conversation.editEvent(text!.id, 'Change other files')) as MessageEvent;
    expect(textCopy.llm_message.content).toEqual([{ type: 'text', text: 'Change other files', cache_prompt: false }]);
    const imageCopy = (await conversation.editEvent(image!.id, 'What is this?')) as MessageEvent;
    expect(imageCopy.llm_message.content).toMatchObject([
      { type: 'text', text: 'What is this?' },
      { type: 'image', image_urls: ['https://example.com/b.png'] },
    ]);
    expect(imageCopy.llm_message.content).toHaveLength(2);
    await conversation.close();
  });

  it('replaces the fields given in an object, keeping the others', async () => {
    const { conversation, message } = await finished();
    const edited = await conversation.editEvent(message.id, { sender: 'alice' });
    expect(edited).toMatchObject({ kind: 'MessageEvent', sender: 'alice', llm_message: message.llm_message });
    expect(edited.parent_id).toBe(message.parent_id);
    await conversation.close();
  });

  it('copies a root event as a new root', async () => {
    const { conversation, events } = await finished();
    const root = events[0]!;
    const edited = await conversation.editEvent(root.id, {});
    expect(edited).toMatchObject({ kind: root.kind, parent_id: '__root__' });
    expect((await conversation.activeBranch()).map((event) => event.id)).toEqual([edited.id]);
    await conversation.close();
  });

  it('refuses bad edits with typed errors naming the event, and writes nothing', async () => {
    const { conversation, events, message } = await finished();
    const stateUpdate = events.find((event) => event.kind === 'ConversationStateUpdateEvent')!;
    const action = events.find((event) => event.kind === 'ActionEvent')!;
    const length = conversation.log.length;
    const head = conversation.leafEventId;
    const refused: [string, Parameters<Conversation['editEvent']>[1], RegExp][] = [
      [stateUpdate.id, {}, /a state update is not a step/],
      [action.id, 'text', /a ActionEvent has no text to replace/],
      [message.id, { id: 'mine' }, /id is the copy's own/],
      [message.id, { bogus: 1 }, /has no field bogus/],
      [message.id, { constructor: 1 }, /has no field constructor/],
      [message.id, { toString: 'x' }, /has no field toString/],
      [message.id, JSON.parse('{"__proto__": {"source": "agent"}}'), /has no field __proto__/],
      [message.id, { source: 42 }, /source/],
    ];
    for (const [eventId, content, reason] of refused) {
      const error = await conversation.editEvent(eventId, content).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidEventEditError);
      expect((error as InvalidEventEditError).eventId).toBe(eventId);
      expect((error as Error).message).toMatch(reason);
    }
    const invalid = await conversation.editEvent(message.id, { source: 42 }).catch((caught: unknown) => caught);
    expect((invalid as Error).cause).toBeDefined();
    await expect(conversation.editEvent('nope', 'x')).rejects.toBeInstanceOf(UnknownEventError);
    expect(conversation.log.length).toBe(length);
    expect(conversation.leafEventId).toBe(head);
    await conversation.close();
    // Closed comes first, whatever else is wrong with the edit.
    for (const eventId of [message.id, 'nope']) {
      await expect(conversation.editEvent(eventId, 'x')).rejects.toBeInstanceOf(ConversationClosedError);
    }
  });

  it('refuses to edit an event whose file cannot be read, naming it', async () => {
    const { conversation, message } = await finished();
    await conversation.close();
    const files = await store.list(`${conversation.directory}/events`);
    const file = files.find((path) => path.includes(message.id))!;
    await store.write(file, '{"this is": not json');
    const resumed = await Conversation.resume(conversation.id, options());
    const error = await resumed.editEvent(message.id, 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidEventEditError);
    expect((error as Error).message).toMatch(new RegExp(`${message.id}: its file cannot be read`));
    await resumed.close();
  });

  it("keeps the original's parent when that parent's file cannot be read", async () => {
    const { conversation, events, message } = await finished();
    await conversation.close();
    const parentId = message.parent_id as string;
    expect(events.some((event) => event.id === parentId)).toBe(true);
    const files = await store.list(`${conversation.directory}/events`);
    await store.write(files.find((path) => path.includes(parentId))!, '{"this is": not json');
    const resumed = await Conversation.resume(conversation.id, options());
    const copy = await resumed.editEvent(message.id, 'Change nothing');
    // Not a new root: the copy hangs where the original did, beside it.
    expect(copy.parent_id).toBe(parentId);
    expect(resumed.leafEventId).toBe(copy.id);
    await resumed.close();
  });
});
