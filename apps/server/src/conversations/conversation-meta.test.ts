import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { metaPath, nowIso, readConversationMeta, writeConversationMeta } from './conversation-meta.js';

// meta.json as the server reads it back: a file an older server wrote (without the fields added since) takes the
// defaults a new conversation gets, a value out of range is refused, and what is written reads back the same.

const ID = '0123456789abcdef0123456789abcdef';
const minimal = {
  id: ID,
  created_at: '2026-01-02T03:04:05.000000+00:00',
  updated_at: '2026-01-02T03:04:05.000000+00:00',
  agent: { llm: { model: 'offline' } },
  workspace: { working_dir: '/tmp/w' },
};

describe('meta.json', () => {
  it('gives a file without the later fields their defaults', async () => {
    const store = createMemoryFileStore();
    await store.write(metaPath(ID), JSON.stringify(minimal));
    expect(await readConversationMeta(store, ID)).toMatchObject({
      id: ID,
      tags: {},
      max_iterations: 500,
      stuck_detection: true,
      secret_names: [],
      execution_status: 'idle',
      workspace_checkpoints: false,
    });
  });

  it('is undefined for a directory without one, and refuses a bad id or a max_iterations below 1', async () => {
    const store = createMemoryFileStore();
    expect(await readConversationMeta(store, ID)).toBeUndefined();
    await store.write(metaPath(ID), JSON.stringify({ ...minimal, max_iterations: 0 }));
    await expect(readConversationMeta(store, ID)).rejects.toThrow(/max_iterations/);
    await store.write(metaPath(ID), JSON.stringify({ ...minimal, id: 'ABCDEF' }));
    await expect(readConversationMeta(store, ID)).rejects.toThrow(/id/);
  });

  it('reads back what was written, under <hex>/meta.json, unknown fields kept', async () => {
    const store = createMemoryFileStore();
    await store.write(metaPath(ID), JSON.stringify(minimal));
    const read = await readConversationMeta(store, ID);
    const meta = {
      ...read!,
      title: 'Kept',
      stuck_detection: false,
      workspace_checkpoints: true,
      max_iterations: 1,
      x_later_field: 7,
    };
    await store.delete(metaPath(ID));
    await writeConversationMeta(store, meta);
    expect(metaPath(ID)).toBe(`${ID}/meta.json`);
    expect(await readConversationMeta(store, ID)).toEqual(meta);
  });

  it('stamps times as ISO 8601 with the UTC offset spelled +00:00', () => {
    expect(nowIso()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
  });
});
