import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalFileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConversationIndexSink, indexedConversationStore } from './indexed-store.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

function recordingSink(): ConversationIndexSink & { upserts: string[] } {
  const upserts: string[] = [];
  return {
    upserts,
    upsert: async (record) => {
      upserts.push(`${record.conversationId}:${record.status}`);
    },
    delete: async () => undefined,
  };
}

describe('indexedConversationStore', () => {
  it('passes the local store’s fast paths through, so server logs use them', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-indexed-store-'));
    roots.push(root);
    const store = indexedConversationStore(createLocalFileStore({ root, durability: 'none' }), recordingSink());
    expect(store.writeIfAbsentThenWrite).toBeTypeOf('function');
    expect(store.listingVersion).toBeTypeOf('function');
    expect(store.listUnordered).toBeTypeOf('function');
    // The segment layout's calls (a server started with eventLogLayout: 'segment').
    expect(store.openAppendFile).toBeTypeOf('function');
    expect(store.writeRebuildable).toBeTypeOf('function');
    expect(store.fileSizes).toBeTypeOf('function');
    const created = await store.writeIfAbsentThenWrite!(
      { path: 'c/events/.slots/00000.json', data: 'claim' },
      { path: 'c/events/event-00000-a.json', data: 'event' },
      () => undefined,
    );
    expect(created).toBe(true);
    expect(await store.read('c/events/event-00000-a.json')).toBe('event');
    expect(await store.listingVersion!('c/events')).toMatch(/\d+:\d+:\d+/);
    expect((await store.listUnordered!('c/events')).sort()).toEqual([
      'c/events/.slots/',
      'c/events/event-00000-a.json',
    ]);
    // The EventLog's append storing the bytes once: a body, a claim, the event file linked to the body.
    expect(store.writeIfAbsentThenLinkMany).toBeTypeOf('function');
    const linked = await store.writeIfAbsentThenLinkMany!(
      [
        {
          first: { path: 'c/events/.slots/00001.json', data: 'link' },
          body: { path: 'c/events/.slots/event-00001-b.json', data: 'bytes' },
          linkAt: 'c/events/event-00001-b.json',
        },
      ],
      () => undefined,
    );
    expect(linked).toBe(1);
    expect(await store.read('c/events/event-00001-b.json')).toBe('bytes');
  });

  it('still updates the index when a pair write touches meta.json', async () => {
    const root = await mkdtemp(join(tmpdir(), 'x-indexed-store-'));
    roots.push(root);
    const sink = recordingSink();
    const store = indexedConversationStore(createLocalFileStore({ root, durability: 'none' }), sink);
    const hex = 'ab'.repeat(16);
    await store.writeIfAbsentThenWrite!(
      { path: `${hex}/lock`, data: '1' },
      { path: `${hex}/meta.json`, data: JSON.stringify({ execution_status: 'running' }) },
      () => undefined,
    );
    expect(sink.upserts).toEqual([`${hex}:running`]);
  });
});
