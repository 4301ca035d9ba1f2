import { cp, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AnyEvent, ROOT_PARENT_ID } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, normalizeToolSpecName, UnknownEventError } from '../src/index.js';
import type { ScriptedRequestBody } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const branchedFixture = new URL('../../events/test/__fixtures__/branched/04_navigate_and_branch/', import.meta.url);

type ChatMessage = { role: string; content?: unknown };
const contentsOf = (body: ScriptedRequestBody | undefined) =>
  ((body?.messages ?? []) as ChatMessage[]).map((message) => `${message.role}:${JSON.stringify(message.content)}`);

async function allEvents(conversation: Conversation): Promise<AnyEvent[]> {
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  return events;
}

async function baseState(conversation: Conversation, persistenceDir: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(join(persistenceDir, conversation.directory, 'base_state.json'), 'utf8'));
}

async function eventFiles(dir: string): Promise<Map<string, string>> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  return new Map(
    await Promise.all(files.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)),
  );
}

/** A conversation: system prompt, user "one", agent reply "first answer". */
async function answered(h: Harness) {
  const { conversation } = await h.conversation({ persistenceDir: h.persistenceDir });
  await conversation.sendMessage('one');
  await conversation.run();
  return conversation;
}

describe('conversation tree (reference §7.7)', () => {
  it('writes parent_id on every event it appends and keeps HEAD in base_state.json', async () => {
    harness = await startHarness([{ content: 'first answer' }]);
    const conversation = await answered(harness);
    const events = await allEvents(conversation);
    expect(events[0]?.kind).toBe('SystemPromptEvent');
    expect(events[0]?.parent_id).toBeUndefined();
    const treeEvents = events.filter((event) => event.kind !== 'ConversationStateUpdateEvent');
    for (let index = 1; index < treeEvents.length; index++) {
      expect(treeEvents[index]?.parent_id).toBe(treeEvents[index - 1]?.id);
    }
    // State updates hang off HEAD without moving it.
    for (const update of events.filter((event) => event.kind === 'ConversationStateUpdateEvent')) {
      expect(update.parent_id).toBeDefined();
    }
    const last = treeEvents.at(-1);
    expect(conversation.leafEventId).toBe(last?.id);
    const state = await baseState(conversation, harness.persistenceDir);
    expect(state.leaf_event_id).toBe(last?.id);
    expect(state.head_is_empty).toBe(false);
  });

  it('navigates back, branches, shows only the new branch to the LLM, and resumes on it', async () => {
    harness = await startHarness([{ content: 'first answer' }, { content: 'second answer' }]);
    const conversation = await answered(harness);
    const [system] = await allEvents(conversation);
    await conversation.navigateTo(system?.id ?? '');
    expect(conversation.leafEventId).toBe(system?.id);
    expect(conversation.state.last_user_message_id).toBeUndefined();
    expect((await conversation.view()).events.map((event) => event.kind)).toEqual(['SystemPromptEvent']);

    await conversation.sendMessage('two');
    const user2 = (await allEvents(conversation)).find(
      (event) => event.kind === 'MessageEvent' && JSON.stringify(event.llm_message.content).includes('two'),
    );
    expect(user2?.parent_id).toBe(system?.id);
    await conversation.run();
    const request = contentsOf(harness.server.requests[1]);
    expect(request.join('\n')).toContain('two');
    expect(request.join('\n')).not.toContain('"one"');
    expect(request.join('\n')).not.toContain('first answer');

    const leaf = conversation.leafEventId;
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      persistenceDir: harness.persistenceDir,
    });
    expect(resumed.leafEventId).toBe(leaf);
    const view = (await resumed.view()).events.map((event) => JSON.stringify(event));
    expect(view.join('\n')).toContain('second answer');
    expect(view.join('\n')).not.toContain('first answer');
    expect((await resumed.activeBranch()).every((event) => !JSON.stringify(event).includes('"one"'))).toBe(true);
    // The abandoned branch is still in the log.
    expect((await allEvents(resumed)).some((event) => JSON.stringify(event).includes('first answer'))).toBe(true);
  });

  it('resumes after a navigation with no event appended since (HEAD comes from base_state.json)', async () => {
    harness = await startHarness([{ content: 'first answer' }]);
    const conversation = await answered(harness);
    const events = await allEvents(conversation);
    const user = events.find((event) => event.kind === 'MessageEvent');
    await conversation.navigateTo(user?.id ?? '');
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      persistenceDir: harness.persistenceDir,
    });
    expect(resumed.leafEventId).toBe(user?.id);
    expect((await resumed.view()).events.map((event) => event.kind)).toEqual(['SystemPromptEvent', 'MessageEvent']);
  });

  it('resumes from an older checkpoint when the events after it moved to another branch', async () => {
    harness = await startHarness([{ content: 'first answer' }]);
    const conversation = await answered(harness);
    const statePath = join(harness.persistenceDir, conversation.directory, 'base_state.json');
    const beforeNavigation = await readFile(statePath, 'utf8');
    const [system] = await allEvents(conversation);
    await conversation.navigateTo(system?.id ?? '');
    await conversation.sendMessage('two');
    await conversation.close();
    // As if the process died before checkpointing the navigation: the checkpoint's HEAD is the old branch.
    await writeFile(statePath, beforeNavigation);
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      persistenceDir: harness.persistenceDir,
    });
    const two = (await allEvents(resumed)).filter((event) => event.kind === 'MessageEvent').at(-1);
    expect(two?.parent_id).toBe(system?.id);
    expect(resumed.leafEventId).toBe(two?.id);
    expect(resumed.state.last_user_message_id).toBe(two?.id);
    expect((await resumed.view()).events.map((event) => event.id)).toEqual([system?.id, two?.id]);
  });

  it('pending actions follow the branch: navigating above a held action leaves nothing pending', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo hi', security_risk: 'HIGH' } }] },
    ]);
    const { conversation } = await harness.conversation({ confirmationPolicy: { kind: 'AlwaysConfirm' } });
    await conversation.sendMessage('do it');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    expect(await conversation.pendingActions()).toHaveLength(1);
    const user = (await allEvents(conversation)).find((event) => event.kind === 'MessageEvent');
    await conversation.navigateTo(user?.id ?? '');
    expect(conversation.state.pending_actions).toEqual([]);
    expect(await conversation.pendingActions()).toEqual([]);
    expect(conversation.state.last_user_message_id).toBe(user?.id);
  });

  it('navigateTo(null) empties HEAD: the next event is a new root; unknown ids are a typed error', async () => {
    harness = await startHarness([{ content: 'first answer' }]);
    const conversation = await answered(harness);
    await expect(conversation.navigateTo('no-such-event')).rejects.toBeInstanceOf(UnknownEventError);
    await conversation.navigateTo(null);
    expect(conversation.leafEventId).toBeUndefined();
    expect((await baseState(conversation, harness.persistenceDir)).head_is_empty).toBe(true);
    expect((await conversation.view()).events).toEqual([]);
    await conversation.sendMessage('fresh');
    const last = (await allEvents(conversation)).filter((event) => event.kind === 'MessageEvent').at(-1);
    expect(last?.parent_id).toBe(ROOT_PARENT_ID);
    expect((await conversation.view()).events.map((event) => event.id)).toEqual([last?.id]);
  });

  it('forks the whole log byte for byte, with the same ids and HEAD, leaving the source unchanged', async () => {
    harness = await startHarness([{ content: 'first answer' }, { content: 'fork answer' }]);
    const { conversation, events: seenBySource } = await harness.conversation();
    await conversation.sendMessage('one');
    await conversation.run();
    const seenBefore = seenBySource.length;
    const sourceDir = join(harness.persistenceDir, conversation.directory, 'events');
    const before = await eventFiles(sourceDir);
    const fork = await conversation.fork({ title: 'copy' });
    expect(fork.id).not.toBe(conversation.id);
    expect(fork.leafEventId).toBe(conversation.leafEventId);
    expect(fork.state.execution_status).toBe('idle');
    expect(fork.state.title).toBe('copy');
    expect(fork.state.stats).toEqual({ usage_to_metrics: {} });
    const copied = await eventFiles(join(harness.persistenceDir, fork.directory, 'events'));
    for (const [name, text] of before) expect(copied.get(name)).toBe(text);
    await fork.sendMessage('continue');
    await fork.run();
    expect(await eventFiles(sourceDir)).toEqual(before);
    expect(conversation.state.execution_status).toBe('finished');
    // The source's onEvent listener does not hear the fork.
    expect(seenBySource).toHaveLength(seenBefore);
  });

  it('forks from an event: only the branch up to it, which becomes HEAD', async () => {
    harness = await startHarness([{ content: 'first answer' }]);
    const conversation = await answered(harness);
    const events = await allEvents(conversation);
    const user = events.find((event) => event.kind === 'MessageEvent');
    const fork = await conversation.fork({ fromEventId: user?.id ?? '', resetMetrics: false });
    expect(fork.leafEventId).toBe(user?.id);
    expect(fork.state.stats).toEqual(conversation.state.stats);
    const forkEvents = await allEvents(fork);
    expect(forkEvents.slice(0, 2).map((event) => event.id)).toEqual([events[0]?.id, user?.id]);
    expect(forkEvents.slice(2).every((event) => event.kind === 'ConversationStateUpdateEvent')).toBe(true);
    expect(fork.state.pending_actions).toEqual([]);
    await expect(conversation.fork({ fromEventId: 'nope' })).rejects.toBeInstanceOf(UnknownEventError);
  });

  it("opens the reference's branched conversation on its active branch and appends to it, files unchanged", async () => {
    harness = await startHarness([{ content: 'Yes.' }]);
    const id = 'e88b7591-31db-4e32-98dc-b35f94c662cd';
    const dir = join(harness.persistenceDir, id.replaceAll('-', ''));
    await cp(branchedFixture, dir, { recursive: true });
    const expected = JSON.parse(await readFile(join(dir, 'expected.json'), 'utf8'));
    const before = await eventFiles(join(dir, 'events'));
    const conversation = await Conversation.resume(id, {
      agent: harness.agent(),
      persistenceDir: harness.persistenceDir,
    });
    expect(conversation.leafEventId).toBe(expected.leaf_event_id);
    expect((await conversation.view()).events.map((event) => event.id)).toEqual(expected.active_branch_ids);
    expect(conversation.state.last_user_message_id).toBe(expected.active_branch_ids[1]);
    await conversation.sendMessage('Sure?');
    await conversation.run();
    const request = contentsOf(harness.server.requests[0]).join('\n');
    expect(request).toContain('Italy');
    expect(request).not.toContain('France');
    const after = await eventFiles(join(dir, 'events'));
    for (const [name, text] of before) expect(after.get(name)).toBe(text);
    const appended = (await allEvents(conversation)).find(
      (event) => event.kind === 'MessageEvent' && event.source === 'user' && JSON.stringify(event).includes('Sure?'),
    );
    expect(appended?.parent_id).toBe(expected.leaf_event_id);
  });

  it('loads a linear log without parent_id unchanged', async () => {
    harness = await startHarness([{ content: 'ok' }]);
    const id = '0c6bdf0d-0000-4000-8000-000000000001';
    const dir = join(harness.persistenceDir, id.replaceAll('-', ''));
    await cp(branchedFixture, dir, { recursive: true });
    // Keep the first three events (the reference's 01 conversation) and strip parent_id and HEAD: a pre-tree log.
    const files = (await readdir(join(dir, 'events'))).filter((name) => name.endsWith('.json')).sort();
    for (const [index, name] of files.entries()) {
      const path = join(dir, 'events', name);
      if (index >= 3) await unlink(path);
      else {
        const json = JSON.parse(await readFile(path, 'utf8'));
        delete json.parent_id;
        await writeFile(path, JSON.stringify(json));
      }
    }
    const state = JSON.parse(await readFile(join(dir, 'base_state.json'), 'utf8'));
    delete state.leaf_event_id;
    delete state.head_is_empty;
    state.id = id;
    state.last_user_message_id = '38c115d6-9a1f-4aa5-b6ea-fa2880e6b5d0';
    await writeFile(join(dir, 'base_state.json'), JSON.stringify(state));
    const conversation = await Conversation.resume(id, {
      agent: harness.agent(),
      persistenceDir: harness.persistenceDir,
    });
    expect((await conversation.view()).events).toHaveLength(3);
    expect(conversation.leafEventId).toBe('aa2fc00e-541a-445d-ae1e-1d039ffa5c44');
    await conversation.sendMessage('more');
    const last = (await allEvents(conversation)).filter((event) => event.kind === 'MessageEvent').at(-1);
    expect(last?.parent_id).toBe('aa2fc00e-541a-445d-ae1e-1d039ffa5c44');
  });
});

describe("the reference's conversation API", () => {
  it('updateSecrets persists secrets (redacted without a key, never in events)', async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation();
    await conversation.updateSecrets({ API_TOKEN: 'tok-123' });
    const state = await baseState(conversation, harness.persistenceDir);
    expect(JSON.stringify(state.secret_registry)).toContain('API_TOKEN');
    expect(JSON.stringify(state)).not.toContain('tok-123');
    expect(JSON.stringify(await allEvents(conversation))).not.toContain('tok-123');
  });

  it('setSecurityAnalyzer and the confirmation-mode getters follow the reference, and survive a resume', async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation();
    expect(conversation.confirmationPolicyActive).toBe(false);
    expect(conversation.isConfirmationModeActive).toBe(false);
    await conversation.setConfirmationPolicy({ kind: 'AlwaysConfirm' });
    expect(conversation.confirmationPolicyActive).toBe(true);
    expect(conversation.isConfirmationModeActive).toBe(true);
    expect((await baseState(conversation, harness.persistenceDir)).security_analyzer).toEqual({
      kind: 'LLMSecurityAnalyzer',
    });
    await conversation.setSecurityAnalyzer(null);
    expect(conversation.isConfirmationModeActive).toBe(false);
    expect((await baseState(conversation, harness.persistenceDir)).security_analyzer).toBeUndefined();
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      persistenceDir: harness.persistenceDir,
    });
    expect(resumed.confirmationPolicyActive).toBe(true);
    expect(resumed.isConfirmationModeActive).toBe(false);
  });

  it('blocks and pops actions and messages, persisted in the reference fields', async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation();
    await conversation.blockAction('a1', 'hook said no');
    await conversation.blockMessage('m1', 'not allowed');
    const state = await baseState(conversation, harness.persistenceDir);
    expect(state.blocked_actions).toEqual({ a1: 'hook said no' });
    expect(state.blocked_messages).toEqual({ m1: 'not allowed' });
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      persistenceDir: harness.persistenceDir,
    });
    expect(await resumed.popBlockedAction('a1')).toBe('hook said no');
    expect(await resumed.popBlockedAction('a1')).toBeUndefined();
    expect(await resumed.popBlockedMessage('m1')).toBe('not allowed');
    expect(resumed.state.blocked_messages).toEqual({});
    expect((await baseState(resumed, harness.persistenceDir)).blocked_actions).toEqual({});
  });

  it("writes tool specs under the reference's registry names and reads both spellings", async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation();
    const agent = (await baseState(conversation, harness.persistenceDir)).agent as { tools: { name: string }[] };
    expect(agent.tools.map((tool) => tool.name)).toEqual(['terminal', 'file_editor', 'task_tracker']);
    expect(
      ['TerminalTool', 'FileEditorTool', 'TaskTrackerTool', 'terminal', 'file_editor'].map(normalizeToolSpecName),
    ).toEqual(['terminal', 'file_editor', 'task_tracker', 'terminal', 'file_editor']);
  });
});
