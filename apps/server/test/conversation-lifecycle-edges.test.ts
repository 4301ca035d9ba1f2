// The edges of a server conversation's lifecycle, in process (no HTTP): opening a damaged conversation, the
// published full state, closing and releasing one already let go, interrupted deletes finished at start, forks
// onto a deleted id, and scripted agents on a server not started for testing.
import type { AnyEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { writeTombstone } from '../src/conversations/tombstones.js';
import { hyphenate } from '../src/internal/conversation-ids.js';
import { managersStoppedAfterEach, offlineRequest } from './support/in-process-manager.js';

const start = managersStoppedAfterEach();

const ID = '0123456789abcdef0123456789abcdef';
const OTHER = 'fedcba9876543210fedcba9876543210';

describe('server conversation lifecycle edges', () => {
  it('reports a conversation that cannot be read back as damaged, and opens it again once repaired', async () => {
    const { manager, store, advance } = await start();
    const { conversation } = await manager.create(offlineRequest({ conversation_id: ID }));
    advance(60_000);
    expect(await manager.releaseIdle()).toBe(1);
    const baseState = await store.read(`${ID}/base_state.json`);
    await store.write(`${ID}/base_state.json`, '{ truncated');
    await expect(conversation.open()).rejects.toMatchObject({ code: 'conversation_damaged', statusCode: 409 });
    expect(conversation.isDamaged).toBe(true);
    expect(conversation.damage).toBeTruthy();
    expect(manager.isKnownDamaged(ID)).toBe(true);
    expect(manager.isKnownDamaged(OTHER)).toBe(false);
    // A later open tries again (the failed one is not kept).
    await store.write(`${ID}/base_state.json`, baseState);
    const reopened = await conversation.open();
    expect(reopened.log.length).toBeGreaterThan(0);
    expect(conversation.isDamaged).toBe(false);
    expect(manager.isKnownDamaged(ID)).toBe(false);
    // Once opened, it can be released again (no open is left pending).
    advance(60_000);
    expect(await manager.releaseIdle()).toBe(1);
  });

  it('publishes the full state to listeners after each change, and nothing once none listens', async () => {
    const { manager, store } = await start();
    const { conversation } = await manager.create(offlineRequest({ conversation_id: ID }));
    const published: AnyEvent[] = [];
    const stop = conversation.onPublished((event) => published.push(event));
    await conversation.updateSecrets({ TOKEN: 'secret' });
    const fullStates = () =>
      published.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state');
    expect(fullStates()).toHaveLength(1);
    expect(JSON.stringify(fullStates()[0])).toContain(hyphenate(ID));
    await conversation.pause();
    expect(fullStates()).toHaveLength(2);
    stop();
    await conversation.setSecurityAnalyzer(null);
    expect(fullStates()).toHaveLength(2);
    // The secret reached the conversation itself (base_state.json, its value redacted), not only meta.json's names.
    expect(await store.read(`${ID}/base_state.json`)).toContain('TOKEN');
    expect(conversation.meta.secret_names).toEqual(['TOKEN']);
  });

  it('closes and releases the processes of a conversation already released without failing', async () => {
    const { manager, store, advance } = await start();
    const { conversation } = await manager.create(offlineRequest({ conversation_id: ID, title: 'Kept' }));
    advance(60_000);
    expect(await manager.releaseIdle()).toBe(1);
    await conversation.releaseProcesses();
    await conversation.close();
    expect(JSON.parse(await store.read(`${ID}/meta.json`))).toMatchObject({ title: 'Kept' });
    expect(() => conversation.log).toThrow(/not open/);
    expect(() => conversation.fullState()).toThrow(/not open/);
  });

  it('closes the open conversation itself on close (shutdown): it takes no more changes', async () => {
    const { manager } = await start();
    const { conversation } = await manager.create(offlineRequest({ conversation_id: ID }));
    const opened = await conversation.conversation();
    await conversation.close();
    await expect(opened.updateSecrets({ LATE: 'value' })).rejects.toThrow();
  });

  it('finishes at start a delete a crash cut short: the conversation never comes back', async () => {
    const first = await start();
    await first.manager.create(offlineRequest({ conversation_id: ID }));
    await first.manager.create(offlineRequest({ conversation_id: OTHER }));
    await writeTombstone(first.store, ID);
    const second = await start({ store: first.store });
    expect(await second.manager.get(ID)).toBeUndefined();
    expect(await first.store.exists(`${ID}/meta.json`)).toBe(false);
    expect(second.manager.wasDeleted(ID)).toBe(true);
    expect((await second.manager.list()).map((conversation) => conversation.hex)).toEqual([OTHER]);
    expect(second.lines).toContain('info: interrupted delete finished');
  });

  it('forks onto the id of a deleted conversation as a new one, telling the list listeners', async () => {
    const { manager } = await start();
    await manager.create(offlineRequest({ conversation_id: ID }));
    await manager.create(offlineRequest({ conversation_id: OTHER }));
    expect(await manager.delete(OTHER)).toBe(true);
    expect(manager.wasDeleted(OTHER)).toBe(true);
    let changes = 0;
    manager.onListChanged(() => {
      changes += 1;
    });
    const fork = await manager.fork(ID, { id: OTHER, reset_metrics: false });
    expect(changes).toBe(1);
    expect(manager.wasDeleted(OTHER)).toBe(false);
    expect(await manager.get(OTHER)).toBe(fork);
  });

  it('refuses a scripted agent unless the server was started for testing', async () => {
    const script = { agent: { llm: { model: 'offline' }, tools: [], x_offline_script: [{ content: 'hi' }] } };
    const production = await start();
    expect(() => production.manager.create(offlineRequest(script))).toThrow(/allowScriptedAgents/);
    const testing = await start({ allowScriptedAgents: true });
    expect((await testing.manager.create(offlineRequest(script))).created).toBe(true);
    // A plain offline agent needs no permission.
    expect((await production.manager.create(offlineRequest())).created).toBe(true);
  });

  it('on a shared store, finds a conversation another replica created after this one listed the store', async () => {
    const first = await start({ shared: {} });
    const second = await start({ store: first.store, shared: {} });
    await first.manager.create(offlineRequest({ conversation_id: ID, title: 'From the other replica' }));
    const found = await second.manager.get(ID);
    expect(found?.meta.title).toBe('From the other replica');
    expect(await second.manager.get(OTHER)).toBeUndefined();
    // A single server (no shared store) knows only what it listed or made.
    const single = await start({ store: first.store });
    await first.manager.create(offlineRequest({ conversation_id: OTHER }));
    expect(await single.manager.get(OTHER)).toBeUndefined();
  });

  it('logs and skips a conversation whose meta.json cannot be read', async () => {
    const first = await start();
    await first.manager.create(offlineRequest({ conversation_id: ID }));
    await first.store.write(`${ID}/meta.json`, '{ broken');
    const second = await start({ store: first.store });
    expect(await second.manager.get(ID)).toBeUndefined();
    expect(second.lines).toContain('error: unreadable meta.json: conversation skipped');
  });
});
