// The server's conversations as the MCP face sees them (createManagerHost), in process: what start_conversation
// refuses and how it names the field, a message recorded without starting a run, the events window and count, a
// run followed from where it starts, a watch that hears only later appends and stops, titles in listings, and what a
// page leaves out that its listing still names.
import { createMemoryFileStore, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { MemoryConversationIndex } from '../../src/conversations/memory-conversation-index.js';
import { createManagerHost } from '../../src/faces/mcp/manager-host.js';
import type { McpConversationHost } from '../../src/faces/mcp/mcp-host.js';
import { McpToolCallError } from '../../src/faces/mcp/mcp-tool-call-error.js';
import { waitFor } from '../helpers.js';
import {
  managersStoppedAfterEach,
  offlineRequest,
  recordingLogger,
  startInProcessManager,
} from '../support/in-process-manager.js';

const start = managersStoppedAfterEach();

async function host(): Promise<McpConversationHost> {
  const { manager, listing } = await start();
  return createManagerHost(manager, {
    listing,
    logger: recordingLogger().logger,
    defaultConversation: offlineRequest(),
  });
}

describe('the manager host', () => {
  it('refuses a create body naming the first field at fault under arguments.conversation', async () => {
    const mcp = await host();
    const refused = await mcp.create({ agent: { llm: { model: 'offline' }, tools: [] }, max_iterations: 0 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(McpToolCallError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({
      reason: 'invalid_arguments',
      details: { tool: 'start_conversation', path: 'arguments.conversation.max_iterations' },
      message: expect.stringMatching(/^start_conversation: arguments\.conversation\.max_iterations: ./),
    });
    expect(mcp.acceptsCreateBody).toBe(true);
  });

  it('records a message without prompt caching and without a run, and counts and windows the events', async () => {
    const mcp = await host();
    const conversation = await mcp.create(undefined);
    const before = await conversation.view();
    await conversation.sendMessage('hello there');
    const view = await conversation.view();
    expect(view).toMatchObject({ status: 'idle', final_answer: '', pending_actions: [] });
    expect(view.event_count).toBe(before.event_count + 1);
    expect(conversation.isRunning).toBe(false);
    const { events, total } = await conversation.events(0, 1000);
    expect(total).toBe(view.event_count);
    expect(events).toHaveLength(total);
    expect(events.at(-1)).toMatchObject({
      kind: 'MessageEvent',
      source: 'user',
      llm_message: { role: 'user', content: [{ cache_prompt: false, type: 'text', text: 'hello there' }] },
    });
    expect(await conversation.events(total, 10)).toEqual({ events: [], total });
    expect((await conversation.events(total - 1, 10)).events).toEqual([events.at(-1)]);
    expect((await conversation.state()).id).toBe(conversation.id);
  });

  it('follows a run from the first event it appends, with each event at its index', async () => {
    const mcp = await host();
    const conversation = await mcp.create(undefined);
    await conversation.sendMessage('say something');
    const before = (await conversation.view()).event_count;
    const seen: number[] = [];
    await conversation.followRun({
      signal: new AbortController().signal,
      onEvent: (_event, index) => seen.push(index),
    });
    const after = await conversation.view();
    expect(after.status).toBe('finished');
    expect(seen[0]).toBe(before);
    expect(seen).toEqual(seen.map((_, offset) => before + offset));
    expect(seen.at(-1)).toBe(after.event_count - 1);
  });

  it('calls a watcher for appends after it started only, and never once it stopped', async () => {
    const mcp = await host();
    const conversation = await mcp.create(undefined);
    await conversation.sendMessage('already there');
    let first = 0;
    const stopFirst = conversation.watch(() => {
      first += 1;
    });
    await conversation.sendMessage('after the watch');
    await waitFor(async () => first > 0);
    expect(first).toBe(1);
    stopFirst();
    let second = 0;
    const stopSecond = conversation.watch(() => {
      second += 1;
    });
    await conversation.sendMessage('after the stop');
    await waitFor(async () => second > 0);
    stopSecond();
    expect(first).toBe(1);
  });

  it('lists titles only for conversations that have one, and finds conversations by id', async () => {
    const mcp = await host();
    const named = await mcp.create({ ...offlineRequest(), title: 'Named one' });
    const plain = await mcp.create(undefined);
    const { conversations: listed } = await mcp.page({ limit: 10 });
    expect(listed).toContainEqual({ conversation_id: named.id, status: 'idle', title: 'Named one' });
    expect(listed).toContainEqual({ conversation_id: plain.id, status: 'idle' });
    // Not even `title: undefined`: the summary is the structured content a client reads keys of.
    expect(listed.find((summary) => summary.conversation_id === plain.id)).not.toHaveProperty('title');
    expect((await mcp.find(plain.id))?.id).toBe(plain.id);
    expect(await mcp.find('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(await mcp.find('not an id')).toBeUndefined();
  });

  it('lists a damaged conversation as its meta.json has it until it is opened, and leaves it out once found damaged', async () => {
    const store = createMemoryFileStore();
    const before = await startInProcessManager({ store });
    const first = createManagerHost(before.manager, {
      listing: before.listing,
      logger: recordingLogger().logger,
      defaultConversation: offlineRequest(),
    });
    const healthy = await first.create(undefined);
    const damaged = await first.create(undefined);
    await before.stop();
    await halveBaseState(store, damaged.id);
    const { manager, listing } = await start({ store });
    const mcp = createManagerHost(manager, { listing, logger: recordingLogger().logger });
    // A listing opens nothing, so it cannot know yet (as the REST search, whose index lists it too).
    const unopened = (await mcp.page({ limit: 10 })).conversations;
    expect(unopened.map((summary) => summary.conversation_id).sort()).toEqual([healthy.id, damaged.id].sort());
    await expect(mcp.find(damaged.id)).rejects.toMatchObject({ code: 'conversation_damaged' });
    const listed = (await mcp.page({ limit: 10 })).conversations;
    expect(listed.map((summary) => summary.conversation_id)).toEqual([healthy.id]);
  });

  it('leaves out what a listing it does not keep names: a conversation deleted since, one found damaged', async () => {
    const store = createMemoryFileStore();
    const before = await startInProcessManager({ store });
    const made = createManagerHost(before.manager, { listing: before.listing, logger: recordingLogger().logger });
    const [healthy, damaged, deleted] = [
      await made.create(offlineRequest()),
      await made.create(offlineRequest()),
      await made.create(offlineRequest()),
    ];
    await before.stop();
    await halveBaseState(store, damaged.id);
    const { manager } = await start({ store });
    // As replicas' PostgreSQL table: it knows nothing of what this process deleted or found damaged.
    const table = new MemoryConversationIndex();
    await table.load(store);
    const mcp = createManagerHost(manager, { listing: table, logger: recordingLogger().logger });
    await manager.delete(deleted.id);
    await expect(mcp.find(damaged.id)).rejects.toMatchObject({ code: 'conversation_damaged' });
    expect((await table.page({ sortOrder: 'CREATED_AT_DESC', limit: 10 })).ids).toHaveLength(3);
    const { conversations } = await mcp.page({ limit: 10 });
    expect(conversations).toEqual([{ conversation_id: healthy.id, status: 'idle' }]);
  });
});

/** Cuts a conversation's base_state.json in half, so opening it fails (a damaged conversation). */
async function halveBaseState(store: FileStore, id: string): Promise<void> {
  const dir = `${id.replace(/-/g, '')}/`;
  const baseState = (await store.list(dir))
    .map((name) => (name.startsWith(dir) ? name : `${dir}${name}`))
    .find((path) => path.endsWith('base_state.json'));
  expect(baseState).toBeDefined();
  const text = await store.read(baseState as string);
  await store.write(baseState as string, text.slice(0, Math.floor(text.length / 2)));
}
