import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { Agent, Conversation, createOfflineLLM, InvalidConversationIdError } from '../src/index.js';

// A conversation's id names its directory in the store (hyphens dropped, lower case). An id that cannot name one
// directory is refused with a typed error naming the id, before anything is read or written: an empty id, one
// that nests a conversation inside another's files (`a/events`), `.`/`..`, control characters, or a name longer
// than a file name may be.

const agent = (): Agent => new Agent({ llm: createOfflineLLM({ script: [] }), tools: [] });

const refused: readonly [string, RegExp][] = [
  ['', /empty/],
  ['---', /empty/],
  ['a/b', /contains "\/"/],
  ['parent/events', /contains "\/"/],
  ['..', /"\.\." segment/],
  ['.', /"\." segment/],
  ['line\nbreak', /control character/],
  ['bell\u0007', /control character/],
  ['back\\slash', /backslash/],
  ['a'.repeat(300), /longer than 255 bytes/],
  ['half\ud800', /surrogate/],
];

describe('Conversation ids that cannot name a directory', () => {
  it.each(refused)('refuses %j on create, resume, open and fork, writing nothing', async (id, reason) => {
    const store = createMemoryFileStore();
    const create = Conversation.create({ agent: agent(), store, id });
    await expect(create).rejects.toBeInstanceOf(InvalidConversationIdError);
    await expect(create).rejects.toThrow(reason);
    await expect(Conversation.resume(id, { agent: agent(), store })).rejects.toBeInstanceOf(InvalidConversationIdError);
    await expect(Conversation.open({ agent: agent(), store, id })).rejects.toBeInstanceOf(InvalidConversationIdError);
    const source = await Conversation.create({ agent: agent(), store });
    await expect(source.fork({ id })).rejects.toBeInstanceOf(InvalidConversationIdError);
    await source.close();
    const names = await store.list('');
    expect(names.every((name) => name.startsWith(source.id.replace(/-/g, '')))).toBe(true);
  });

  it('names the id and the code', async () => {
    const error = await Conversation.create({ agent: agent(), store: createMemoryFileStore(), id: 'x/events' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'invalid_conversation_id', conversationId: 'x/events' });
    expect((error as Error).message).toBe(
      'Invalid conversation id "x/events": contains "/" (a conversation directory is one path segment)',
    );
  });

  it('keeps ids that name one directory, hyphenated or not', async () => {
    const store = createMemoryFileStore();
    for (const id of ['conv-1', 'Team.Run_2', '3f2c1b8a-0d4e-4c1a-9b7e-2a5d6c7e8f90']) {
      const conversation = await Conversation.create({ agent: agent(), store, id });
      expect(conversation.id).toBe(id);
      await conversation.close();
      const resumed = await Conversation.resume(id, { agent: agent(), store });
      expect(resumed.id).toBe(id);
      await resumed.close();
    }
  });
});
