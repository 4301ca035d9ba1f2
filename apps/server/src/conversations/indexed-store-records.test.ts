import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFileStore, type FileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConversationIndexSink, indexedConversationStore } from './indexed-store.js';

type IndexRecord = Parameters<ConversationIndexSink['upsert']>[0];

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function localStore(): Promise<FileStore> {
  const root = await mkdtemp(join(tmpdir(), 'x-indexed-records-'));
  roots.push(root);
  return createLocalFileStore({ root, durability: 'none' });
}

function recordingSink(): ConversationIndexSink & { records: IndexRecord[]; deleted: string[] } {
  const records: IndexRecord[] = [];
  const deleted: string[] = [];
  return {
    records,
    deleted,
    upsert: async (record) => {
      records.push(record);
    },
    delete: async (conversationId) => {
      deleted.push(conversationId);
    },
  };
}

const HEX = 'cd'.repeat(16);

describe('indexedConversationStore: the rows of meta.json writes', () => {
  it('indexes status, the given title, meta.json’s times and fork provenance; writes the file first', async () => {
    const base = await localStore();
    const sink = recordingSink();
    const store = indexedConversationStore(base, sink);
    const meta = {
      id: HEX,
      execution_status: 'finished',
      title: 'Given',
      state_title: 'Generated',
      created_at: '2026-01-01T00:00:00+00:00',
      updated_at: '2026-01-02T00:00:00+00:00',
      forked_from_conversation_id: 'ab'.repeat(16),
      forked_from_event_id: 'event-1',
    };
    await store.write(`${HEX}/meta.json`, JSON.stringify(meta));
    expect(sink.records).toEqual([
      {
        conversationId: HEX,
        status: 'finished',
        title: 'Given',
        createdAt: '2026-01-01T00:00:00+00:00',
        updatedAt: '2026-01-02T00:00:00+00:00',
        forkedFrom: { conversationId: 'ab'.repeat(16), eventId: 'event-1' },
      },
    ]);
    expect(JSON.parse(await base.read(`${HEX}/meta.json`))).toEqual(meta);
  });

  it('falls back to the generated title, then none; to idle; leaves out missing times and provenance', async () => {
    const sink = recordingSink();
    const store = indexedConversationStore(await localStore(), sink);
    await store.write(`${HEX}/meta.json`, new TextEncoder().encode(JSON.stringify({ state_title: 'Generated' })));
    await store.write(`${HEX}/meta.json`, JSON.stringify({ title: null, execution_status: 7, created_at: 1 }));
    await store.write(`${HEX}/meta.json`, JSON.stringify({ forked_from_conversation_id: 'src' }));
    expect(sink.records).toEqual([
      { conversationId: HEX, status: 'idle', title: 'Generated' },
      { conversationId: HEX, status: 'idle', title: null },
      { conversationId: HEX, status: 'idle', title: null, forkedFrom: { conversationId: 'src', eventId: null } },
    ]);
  });

  it('indexes nothing for other files: events, nested meta.json, files of a non-conversation directory', async () => {
    const base = await localStore();
    const sink = recordingSink();
    const store = indexedConversationStore(base, sink);
    await store.write(`${HEX}/events/event-00000-a.json`, '{}');
    await store.write(`${HEX}/subagents/${HEX}/meta.json`, '{}');
    await store.write('notes/meta.json', 'not json');
    await store.write(`x${HEX}/meta.json`, 'not json');
    expect(sink.records).toEqual([]);
    expect(await base.read(`${HEX}/events/event-00000-a.json`)).toBe('{}');
    expect(await base.read('notes/meta.json')).toBe('not json');
  });

  it('with upsertWithFile, hands meta.json to the index to write in one commit (the store does not write it)', async () => {
    const base = await localStore();
    const commits: { record: IndexRecord; path: string; data: string }[] = [];
    const sink: ConversationIndexSink = {
      upsert: async () => {
        throw new Error('upsert is not used when upsertWithFile exists');
      },
      delete: async () => undefined,
      upsertWithFile: async (record, file) => {
        commits.push({ record, path: file.path, data: String(file.data) });
      },
    };
    const store = indexedConversationStore(base, sink);
    const data = JSON.stringify({ execution_status: 'running' });
    await store.write(`${HEX}/meta.json`, data);
    expect(commits).toEqual([
      { record: { conversationId: HEX, status: 'running', title: null }, path: `${HEX}/meta.json`, data },
    ]);
    expect(await base.exists(`${HEX}/meta.json`)).toBe(false);
    // Other files are still the store's own.
    await store.write(`${HEX}/base_state.json`, '{}');
    expect(await base.read(`${HEX}/base_state.json`)).toBe('{}');
    expect(commits).toHaveLength(1);
  });

  it('removes the row when a conversation directory is deleted, not for files inside it', async () => {
    const base = await localStore();
    const sink = recordingSink();
    const store = indexedConversationStore(base, sink);
    await store.write(`${HEX}/meta.json`, '{}');
    await store.write(`${HEX}/base_state.json`, '{}');
    await store.delete(`${HEX}/base_state.json`);
    await store.delete(`${HEX}/meta.json`);
    expect(sink.deleted).toEqual([]);
    await store.delete(HEX);
    await store.delete('ef'.repeat(16));
    expect(sink.deleted).toEqual([HEX, 'ef'.repeat(16)]);
    expect(await base.exists(`${HEX}/base_state.json`)).toBe(false);
  });

  it('a pair write creating meta.json reports creation, and writes nothing when the first file exists', async () => {
    const base = await localStore();
    const sink = recordingSink();
    const store = indexedConversationStore(base, sink);
    let created = 0;
    const pair = (status: string) =>
      store.writeIfAbsentThenWrite!(
        { path: `${HEX}/meta.json`, data: JSON.stringify({ execution_status: status }) },
        { path: `${HEX}/lock`, data: status },
        () => {
          created += 1;
        },
      );
    expect(await pair('idle')).toBe(true);
    expect(created).toBe(1);
    expect(await base.read(`${HEX}/lock`)).toBe('idle');
    expect(await pair('running')).toBe(false);
    expect(created).toBe(1);
    expect(await base.read(`${HEX}/lock`)).toBe('idle');
    expect(JSON.parse(await base.read(`${HEX}/meta.json`))).toEqual({ execution_status: 'idle' });
    // writeIfAbsent is not an index update (only `write` of meta.json is).
    expect(sink.records).toEqual([]);
  });

  it('passes the batch read and file sizes through to the store', async () => {
    const base = await localStore();
    const store = indexedConversationStore(base, recordingSink());
    await base.write('c/a.json', 'abc');
    const [read] = await store.readBatch!(['c/a.json']);
    expect(new TextDecoder().decode(read as Uint8Array)).toBe('abc');
    expect(await store.fileSizes!(['c/a.json', 'c/none.json'])).toEqual([3, undefined]);
    await store.writeRebuildable!([{ path: 'c/b.json', data: 'rebuilt' }]);
    expect(await store.read('c/b.json')).toBe('rebuilt');
    const append = await store.openAppendFile!('c/segment');
    expect(await append.append(new TextEncoder().encode('seg'))).toBe(3);
    await append.close();
    expect(await base.read('c/segment')).toBe('seg');
  });

  it('leaves out the fast paths the store lacks (callers then use the plain calls)', async () => {
    const base = await localStore();
    const bare: FileStore = {
      ...base,
      readBatch: undefined,
      listUnordered: undefined,
      listingVersion: undefined,
      writeIfAbsentThenWrite: undefined,
      writeIfAbsentThenLinkMany: undefined,
      openAppendFile: undefined,
      writeRebuildable: undefined,
      fileSizes: undefined,
    };
    const store = indexedConversationStore(bare, recordingSink());
    expect(store.readBatch).toBeUndefined();
    expect(store.listUnordered).toBeUndefined();
    expect(store.listingVersion).toBeUndefined();
    expect(store.writeIfAbsentThenWrite).toBeUndefined();
    expect(store.writeIfAbsentThenLinkMany).toBeUndefined();
    expect(store.openAppendFile).toBeUndefined();
    expect(store.writeRebuildable).toBeUndefined();
    expect(store.fileSizes).toBeUndefined();
    await store.write('c/a.json', 'plain');
    expect(await store.read('c/a.json')).toBe('plain');
  });
});
