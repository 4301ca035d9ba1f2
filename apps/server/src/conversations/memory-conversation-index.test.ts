import { createMemoryFileStore, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { hyphenate } from '../internal/conversation-ids.js';
import { MemoryConversationIndex } from './memory-conversation-index.js';

const hex = (digit: string) => digit.repeat(32);
const A = hex('a');
const B = hex('b');
const C = hex('c');
const D = hex('d');

/** Four conversations: created a < b < c (d ties with c, and sorts after it by id); updated in the other order. */
async function fourRows(): Promise<MemoryConversationIndex> {
  const index = new MemoryConversationIndex();
  await index.upsert({ conversationId: A, status: 'idle', title: 'Alpha Report', createdAt: 't1', updatedAt: 'u4' });
  await index.upsert({ conversationId: B, status: 'running', title: null, createdAt: 't2', updatedAt: 'u3' });
  await index.upsert({ conversationId: C, status: 'idle', title: 'gamma', createdAt: 't3', updatedAt: 'u2' });
  await index.upsert({ conversationId: D, status: 'finished', title: 'delta', createdAt: 't3', updatedAt: 'u1' });
  return index;
}

const ids = async (index: MemoryConversationIndex, query: Parameters<MemoryConversationIndex['page']>[0]) =>
  (await index.page(query)).ids;

describe('MemoryConversationIndex', () => {
  it('pages in each sort order, ties broken by id', async () => {
    const index = await fourRows();
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10 })).toEqual([A, B, C, D]);
    expect(await ids(index, { sortOrder: 'CREATED_AT_DESC', limit: 10 })).toEqual([D, C, B, A]);
    expect(await ids(index, { sortOrder: 'UPDATED_AT', limit: 10 })).toEqual([D, C, B, A]);
    expect(await ids(index, { sortOrder: 'UPDATED_AT_DESC', limit: 10 })).toEqual([A, B, C, D]);
  });

  it('pages by limit from startAt (inclusive), naming the next page’s first id; an unknown startAt starts over', async () => {
    const index = await fourRows();
    expect(await index.page({ sortOrder: 'CREATED_AT', limit: 2 })).toEqual({
      ids: [A, B],
      next: C,
      end: { at: 't2', id: B },
    });
    expect(await index.page({ sortOrder: 'CREATED_AT', limit: 2, startAt: C })).toEqual({ ids: [C, D] });
    expect(await index.page({ sortOrder: 'CREATED_AT', limit: 1, startAt: B })).toEqual({
      ids: [B],
      next: C,
      end: { at: 't2', id: B },
    });
    expect(await index.page({ sortOrder: 'CREATED_AT', limit: 3, startAt: hex('e') })).toEqual({
      ids: [A, B, C],
      next: D,
      end: { at: 't3', id: C },
    });
    expect(await index.page({ sortOrder: 'CREATED_AT', limit: 4 })).toEqual({ ids: [A, B, C, D] });
  });

  it('pages strictly after a place (time and id) in the order, whether or not its conversation is still there', async () => {
    const index = await fourRows();
    const first = await index.page({ sortOrder: 'CREATED_AT_DESC', limit: 2 });
    expect(first).toEqual({ ids: [D, C], next: B, end: { at: 't3', id: C } });
    expect(await index.page({ sortOrder: 'CREATED_AT_DESC', limit: 2, after: first.end })).toEqual({ ids: [B, A] });
    await index.delete(C);
    await index.delete(B);
    expect(await index.page({ sortOrder: 'CREATED_AT_DESC', limit: 2, after: first.end })).toEqual({ ids: [A] });
    // The update order's place is an update time; one past the end gives an empty page.
    expect(await index.page({ sortOrder: 'UPDATED_AT', limit: 1 })).toEqual({
      ids: [D],
      next: A,
      end: { at: 'u1', id: D },
    });
    expect(await index.page({ sortOrder: 'UPDATED_AT', limit: 1, after: { at: 'u9', id: A } })).toEqual({ ids: [] });
  });

  it('pages from the top after a place before every row, and from a known startAt whatever place it is given', async () => {
    const index = await fourRows();
    // The first page ended at C and everything up to it went: the rest starts at the top.
    await index.delete(D);
    await index.delete(C);
    expect(await ids(index, { sortOrder: 'CREATED_AT_DESC', limit: 1, after: { at: 't3', id: C } })).toEqual([B]);
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 1, after: { at: 't0', id: D } })).toEqual([A]);
    // startAt, when it names a row (the first one included), wins over a place.
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 1, startAt: A, after: { at: 't1', id: A } })).toEqual([
      A,
    ]);
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 1, startAt: C, after: { at: 't1', id: A } })).toEqual([
      B,
    ]);
  });

  it('filters by status and by text in the title or the id (hex or hyphenated), ignoring case and blanks', async () => {
    const index = await fourRows();
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10, status: 'idle' })).toEqual([A, C]);
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10, query: '  REPORT ' })).toEqual([A]);
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10, query: 'bbbb' })).toEqual([B]);
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10, query: 'CCCCCCCC-CCCC' })).toEqual([C]);
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10, query: '   ' })).toEqual([A, B, C, D]);
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10, status: 'idle', query: 'delta' })).toEqual([]);
    expect(await index.count()).toBe(4);
    expect(await index.count('idle')).toBe(2);
    expect(await index.count(undefined, 'GAMMA')).toBe(1);
    expect(await index.count('running', 'bbb')).toBe(1);
  });

  it('leaves out excluded (damaged) conversations from pages and counts', async () => {
    const index = await fourRows();
    index.exclude((row) => row === B);
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10 })).toEqual([A, C, D]);
    expect(await index.count()).toBe(3);
    expect(index.size).toBe(4);
  });

  it('keeps pages current: a new row, a changed row and a deleted row show at once', async () => {
    const index = await fourRows();
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10 })).toEqual([A, B, C, D]);
    await index.upsert({ conversationId: hex('0'), status: 'idle', title: null, createdAt: 't0', updatedAt: 'u0' });
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10 })).toEqual([hex('0'), A, B, C, D]);
    // A status change without times keeps the known ones.
    await index.upsert({ conversationId: A, status: 'finished', title: 'Alpha Report' });
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10 })).toEqual([hex('0'), A, B, C, D]);
    expect(index.idsWithStatus('finished')).toEqual([A, D]);
    expect(await index.delete(B)).toBe(true);
    expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10 })).toEqual([hex('0'), A, C, D]);
    expect(await index.delete(B)).toBe(false);
    expect(index.size).toBe(4);
  });

  it('follows meta changes, the generated title standing in for a missing one', async () => {
    const index = new MemoryConversationIndex();
    index.follow({
      id: A,
      execution_status: 'idle',
      title: null,
      state_title: 'Generated Title',
      created_at: 't1',
      updated_at: 'u1',
    });
    expect(await index.count(undefined, 'generated')).toBe(1);
    index.follow({
      id: A,
      execution_status: 'idle',
      title: 'Given',
      state_title: 'Generated',
      created_at: 't1',
      updated_at: 'u1',
    });
    expect(await index.count(undefined, 'generated')).toBe(0);
    expect(await index.count(undefined, 'given')).toBe(1);
  });

  it('records forks under their source (hyphenated or not), and forgets them when either is deleted', async () => {
    const index = new MemoryConversationIndex();
    await index.upsert({
      conversationId: B,
      status: 'idle',
      title: null,
      forkedFrom: { conversationId: hyphenate(A), eventId: 'e1' },
    });
    index.follow({
      id: C,
      execution_status: 'idle',
      title: null,
      state_title: null,
      created_at: 't',
      updated_at: 'u',
      forked_from_conversation_id: A.toUpperCase(),
      forked_from_event_id: null,
    });
    await index.upsert({
      conversationId: D,
      status: 'idle',
      title: null,
      forkedFrom: { conversationId: 'not-an-id', eventId: null },
    });
    expect(index.forksOf(A)).toEqual([
      { conversation_id: hyphenate(B), from_event_id: 'e1' },
      { conversation_id: hyphenate(C), from_event_id: null },
    ]);
    expect(index.forksOf(D)).toEqual([]);
    await index.delete(B);
    expect(index.forksOf(A)).toEqual([{ conversation_id: hyphenate(C), from_event_id: null }]);
    await index.delete(A);
    expect(index.forksOf(A)).toEqual([]);
  });

  it('loads every readable meta.json at start, keeping rows written meanwhile', async () => {
    const store = createMemoryFileStore();
    const meta = (id: string, fields: Record<string, unknown> = {}) =>
      JSON.stringify({
        id,
        execution_status: 'finished',
        title: `T ${id.slice(0, 1)}`,
        created_at: 't',
        updated_at: 'u',
        // What meta.json's schema requires besides (the one-by-one read checks it whole).
        agent: { llm: { model: 'offline' } },
        workspace: { working_dir: '/workspace' },
        ...fields,
      });
    await store.write(
      `${A}/meta.json`,
      meta(A, { forked_from_conversation_id: hyphenate(D), forked_from_event_id: 'e' }),
    );
    await store.write(`${B}/meta.json`, meta(B, { execution_status: 3, title: 7, state_title: 'from state' }));
    await store.write(`${C}/meta.json`, '{ not json');
    await store.write(`${D}/meta.json`, meta(D, { created_at: undefined }));
    await store.write(`${hex('e')}/meta.json`, meta('E'.repeat(32)));
    await store.write(`${hex('f')}/base_state.json`, '{}');
    await store.write('notes/meta.json', meta(hex('1')));
    for (const withBatch of [true, false]) {
      const index = new MemoryConversationIndex();
      await index.upsert({ conversationId: hex('e'), status: 'running', title: 'written meanwhile' });
      const source: FileStore = withBatch ? store : { ...store, readBatch: undefined };
      await index.load(source);
      // The batch read checks fields by hand: a non-string status is idle, a non-string title gives way to the
      // state's; read one by one, meta.json's schema refuses such a file (left out).
      expect(index.size, `batch: ${withBatch}`).toBe(withBatch ? 3 : 2);
      expect(index.idsWithStatus('finished')).toEqual([A]);
      expect(index.idsWithStatus('idle')).toEqual(withBatch ? [B] : []);
      expect(index.idsWithStatus('running')).toEqual([hex('e')]);
      expect(await index.count(undefined, 'from state')).toBe(withBatch ? 1 : 0);
      expect(await index.count(undefined, 't a')).toBe(1);
      expect(index.forksOf(D)).toEqual([{ conversation_id: hyphenate(A), from_event_id: 'e' }]);
    }
  });

  it('loads a store holding a single conversation, whatever hex digits its id has', async () => {
    const id = '0123456789abcdef0000000000000000';
    const store = createMemoryFileStore();
    await store.write(
      `${id}/meta.json`,
      JSON.stringify({
        id,
        execution_status: 'idle',
        title: 'only one',
        created_at: 't',
        updated_at: 'u',
        agent: { llm: { model: 'offline' } },
        workspace: { working_dir: '/workspace' },
      }),
    );
    for (const source of [store, { ...store, readBatch: undefined }]) {
      const index = new MemoryConversationIndex();
      await index.load(source);
      expect(await ids(index, { sortOrder: 'CREATED_AT', limit: 10 })).toEqual([id]);
    }
  });
});
