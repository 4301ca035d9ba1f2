import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { managersStoppedAfterEach, offlineRequest as request } from '../../test/support/in-process-manager.js';
import { hyphenate } from '../internal/conversation-ids.js';
import { readConversationMeta } from './conversation-meta.js';

// The server's conversation lifecycle in process (no HTTP): a manager on a memory store, offline agents without
// tools, and an injected clock for idle release.

const startManager = managersStoppedAfterEach();

const ID = '0123456789abcdef0123456789abcdef';

describe('server conversations in process', () => {
  it('creates once per id, records meta.json, and hands the same conversation out', async () => {
    const { manager, store } = await startManager();
    const first = await manager.create(request({ conversation_id: ID, title: 'First', tags: { team: 'a' } }));
    expect(first.created).toBe(true);
    const again = await manager.create(request({ conversation_id: ID, title: 'Other' }));
    expect(again).toEqual({ conversation: first.conversation, created: false });
    expect(first.conversation.id).toBe(hyphenate(ID));
    expect(first.conversation.hex).toBe(ID);
    expect(await manager.get(hyphenate(ID))).toBe(first.conversation);
    expect(await manager.get('ffffffffffffffffffffffffffffffff')).toBeUndefined();
    await expect(manager.get('not-an-id')).rejects.toMatchObject({ statusCode: 400 });
    await expect(manager.require('ffffffffffffffffffffffffffffffff')).rejects.toMatchObject({ statusCode: 404 });
    const meta = await readConversationMeta(store, ID);
    expect(meta).toMatchObject({ id: ID, title: 'First', tags: { team: 'a' }, execution_status: 'idle' });
    expect((await manager.list()).map((conversation) => conversation.hex)).toEqual([ID]);
  });

  it('runs an initial message to the end and records the final status in meta.json', async () => {
    const { manager, store } = await startManager();
    const { conversation } = await manager.create(
      request({ conversation_id: ID, initial_message: { content: 'hello' } }),
    );
    expect(await conversation.waitForRun(60_000)).toBe(true);
    expect(conversation.isRunning).toBe(false);
    expect(conversation.meta.execution_status).toBe('finished');
    await conversation.saveMeta();
    expect((await readConversationMeta(store, ID))?.execution_status).toBe('finished');
    expect(conversation.fullState()).toMatchObject({ id: hyphenate(ID), execution_status: 'finished' });
  });

  it('refuses other roles than user, and unknown security analyzers; records secrets and the analyzer', async () => {
    const { manager, store } = await startManager();
    const { conversation } = await manager.create(request({ conversation_id: ID, secrets: { A: 'one' } }));
    await expect(
      conversation.sendMessage({ role: 'assistant', content: [], thinking_blocks: [] } as never, { run: false }),
    ).rejects.toThrow(/role was 'assistant'/);
    await expect(conversation.setSecurityAnalyzer({ kind: 'Other' })).rejects.toMatchObject({ statusCode: 422 });
    await conversation.updateSecrets({ B: 'two', A: 'three' });
    expect(conversation.meta.secret_names).toEqual(['A', 'B']);
    await conversation.setSecurityAnalyzer({ kind: 'LLMSecurityAnalyzer' });
    expect((await readConversationMeta(store, ID))?.security_analyzer).toEqual({ kind: 'LLMSecurityAnalyzer' });
    await conversation.setSecurityAnalyzer(null);
    expect((await readConversationMeta(store, ID))?.security_analyzer).toBeNull();
  });

  it('releases an idle conversation only when nothing uses it, and resumes it on the next use', async () => {
    const { manager, advance } = await startManager();
    const { conversation } = await manager.create(request({ conversation_id: ID }));
    expect(conversation.isOpen).toBe(true);
    // Watched (an event socket): never released.
    const stop = conversation.onPublished(() => undefined);
    expect(conversation.isReleasable).toBe(false);
    advance(60_000);
    expect(await manager.releaseIdle()).toBe(0);
    expect(await conversation.release()).toBe(false);
    stop();
    expect(conversation.isReleasable).toBe(true);
    advance(-1);
    expect(await manager.releaseIdle()).toBe(0);
    advance(1);
    expect(await manager.releaseIdle()).toBe(1);
    expect(conversation.isOpen).toBe(false);
    expect(conversation.isReleasable).toBe(false);
    expect(await conversation.release()).toBe(false);
    // The next use resumes it, and counts as a use.
    advance(5_000);
    const opened = await manager.open(hyphenate(ID));
    expect(opened).toBe(conversation);
    expect(conversation.isOpen).toBe(true);
    expect(conversation.lastUsed).toBe(1_065_000);
    expect(conversation.log.length).toBeGreaterThan(0);
    expect(await manager.open('bad id')).toBeUndefined();
    expect(await manager.open('ffffffffffffffffffffffffffffffff')).toBeUndefined();
  });

  it('deletes for good: gone from get and list, refused messages, a second delete finds nothing', async () => {
    const { manager, store } = await startManager();
    const { conversation } = await manager.create(request({ conversation_id: ID }));
    const other = await manager.create(request());
    let changes = 0;
    manager.onListChanged(() => {
      changes += 1;
    });
    let told = 0;
    conversation.onDeleted(() => {
      told += 1;
    });
    expect(await manager.delete(hyphenate(ID))).toBe(true);
    expect(changes).toBe(1);
    expect(told).toBe(1);
    expect(conversation.isDeleted).toBe(true);
    expect(conversation.isReleasable).toBe(false);
    expect(manager.wasDeleted(hyphenate(ID))).toBe(true);
    expect(manager.wasDeleted(other.conversation.id)).toBe(false);
    expect(await manager.get(ID)).toBeUndefined();
    expect((await manager.list()).map((c) => c.id)).toEqual([other.conversation.id]);
    expect(await store.exists(`${ID}/meta.json`)).toBe(false);
    await expect(
      conversation.sendMessage({ role: 'user', content: [], thinking_blocks: [] }, { run: false }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/deleted/) });
    expect(await manager.delete(ID)).toBe(false);
    await expect(manager.delete('nope')).rejects.toMatchObject({ statusCode: 400 });
    // Created again with the same id: a new conversation.
    const again = await manager.create(request({ conversation_id: ID }));
    expect(again.created).toBe(true);
    expect(again.conversation).not.toBe(conversation);
    expect(changes).toBe(2);
  });

  it('forks with provenance, its own title and the source’s tags; a fork onto a known id is refused', async () => {
    const { manager, store } = await startManager();
    const source = await manager.create(
      request({ conversation_id: ID, title: 'Source', tags: { team: 'a' }, initial_message: { content: 'hi' } }),
    );
    await source.conversation.waitForRun(60_000);
    const forkId = 'fedcba9876543210fedcba9876543210';
    const fork = await manager.fork(ID, { id: forkId, reset_metrics: false });
    expect(fork.hex).toBe(forkId);
    expect(fork.isOpen).toBe(true);
    expect(fork.meta).toMatchObject({
      title: null,
      tags: { team: 'a' },
      execution_status: 'idle',
      secret_names: [],
      forked_from_conversation_id: hyphenate(ID),
      forked_from_event_id: null,
    });
    expect((await readConversationMeta(store, forkId))?.forked_from_conversation_id).toBe(hyphenate(ID));
    expect(fork.log.length).toBeGreaterThanOrEqual(source.conversation.log.length);
    await expect(manager.fork(ID, { id: forkId, reset_metrics: false })).rejects.toMatchObject({ statusCode: 409 });
    const titled = await manager.fork(ID, { title: 'Copy', tags: { team: 'b' }, reset_metrics: true });
    expect(titled.meta).toMatchObject({ title: 'Copy', tags: { team: 'b' } });
    expect((await manager.list()).length).toBe(3);
  });

  it('finds conversations another process wrote when restarted on the same store', async () => {
    const store = createMemoryFileStore();
    const first = await startManager({ store });
    await first.manager.create(request({ conversation_id: ID, title: 'Kept' }));
    await first.manager.close(5_000);
    const second = await startManager({ store });
    const found = await second.manager.require(hyphenate(ID));
    expect(found.meta.title).toBe('Kept');
    expect(found.isOpen).toBe(false);
    await found.open();
    expect(found.isOpen).toBe(true);
  });
});
