// Opening a persisted conversation: base_state.json plus the events, as either implementation left them.
import { type AnyEvent, createEvent, ROOT_PARENT_ID, withParent } from '@x/events';
import { createMemoryFileStore, EventLog, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { applyEvent } from '../state/apply-event.js';
import { initialConversationState } from '../state/conversation-state.js';
import { buildBaseState } from './base-state.js';
import { ConversationNotFoundError } from './errors/conversation-not-found-error.js';
import { loadPersistedState } from './load-persisted-state.js';
import { conversationDirName } from './persistence-layout.js';

const id = 'e88b7591-31db-4e32-98dc-b35f94c662cd';
const dir = conversationDirName(id);

const message = (text: string, parent: string) =>
  withParent(
    createEvent('MessageEvent', {
      id: text,
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text }] },
    }),
    parent,
  );

const action = (callId: string, parent: string) =>
  withParent(
    createEvent('ActionEvent', {
      id: callId,
      thought: [],
      action: { kind: 'TerminalAction', command: 'ls' },
      tool_name: 'terminal',
      tool_call_id: callId,
      tool_call: { id: callId, name: 'terminal', arguments: '{}', origin: 'completion' },
      llm_response_id: `response-${callId}`,
      security_risk: 'LOW',
    }),
    parent,
  );

/** A store holding a log `m0 → m1` and a second branch `m0 → m2` (appended last), and `base` as base_state.json. */
async function referenceDirectory(base: Record<string, unknown> | undefined): Promise<FileStore> {
  const store = createMemoryFileStore();
  const log = await EventLog.open(store, { dir: `${dir}/events` });
  await log.append(message('m0', ROOT_PARENT_ID));
  await log.append(message('m1', 'm0'));
  await log.append(message('m2', 'm0'));
  if (base !== undefined) await store.write(`${dir}/base_state.json`, JSON.stringify({ id, ...base }));
  return store;
}

/** Opens the conversation; `reads` gets the first index of every range the log is asked for. */
function load(store: FileStore, reads: number[] = []) {
  return loadPersistedState({
    store,
    id,
    directory: dir,
    cipher: undefined,
    openLog: async ({ store: at, dir: events }) => {
      const log = await EventLog.open(at, { dir: events });
      return new Proxy(log, {
        get(target, key) {
          if (key === 'range')
            return (from: number, to: number) => {
              reads.push(from);
              return target.range(from, to);
            };
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    },
  });
}

describe('loadPersistedState of a directory the reference wrote', () => {
  it("takes the file's settings, status and policy over the fold's defaults", async () => {
    const store = await referenceDirectory({
      max_iterations: 7,
      stuck_detection: false,
      execution_status: 'paused',
      confirmation_policy: { kind: 'AlwaysConfirm' },
    });
    const { state, recordedBaseState, securityAnalyzer } = await load(store);
    expect(state).toMatchObject({
      max_iterations: 7,
      stuck_detection: false,
      execution_status: 'paused',
      confirmation_policy: { kind: 'AlwaysConfirm' },
      event_count: 3,
    });
    expect(recordedBaseState?.max_iterations).toBe(7);
    // The reference recorded no analyzer: it ran without one.
    expect(securityAnalyzer).toBe('none');
  });

  it("keeps the fold's defaults for the settings the file leaves out", async () => {
    const { state } = await load(await referenceDirectory({}));
    expect(state).toMatchObject({ max_iterations: 500, stuck_detection: true, execution_status: 'idle' });
  });

  it('opens on the active branch (the last appended) when the file names no HEAD', async () => {
    const { state } = await load(await referenceDirectory({}));
    expect(state).toMatchObject({ leaf_event_id: 'm2', head_is_empty: false });
  });

  it('follows the HEAD the file records, on another branch', async () => {
    const { state } = await load(await referenceDirectory({ leaf_event_id: 'm1' }));
    expect(state).toMatchObject({ leaf_event_id: 'm1', head_is_empty: false });
  });

  it('keeps an empty HEAD the file records without a leaf', async () => {
    const { state } = await load(await referenceDirectory({ head_is_empty: true }));
    expect(state.head_is_empty).toBe(true);
    expect(state.leaf_event_id).toBeUndefined();
    expect(state.last_user_message_id).toBeUndefined();
  });

  it('is a typed error naming the directory when there is neither a file nor an event', async () => {
    const store = createMemoryFileStore();
    await expect(load(store)).rejects.toThrow(ConversationNotFoundError);
    await expect(load(store)).rejects.toThrow(dir);
  });
});

describe('loadPersistedState of a directory x checkpointed', () => {
  /** x's base_state.json folded over `checkpointed`, then `after` appended to the log without a new checkpoint. */
  async function checkpointedDirectory(checkpointed: AnyEvent[], after: AnyEvent[]): Promise<FileStore> {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store, { dir: `${dir}/events` });
    let state = initialConversationState({ id });
    for (const event of checkpointed) {
      await log.append(event);
      state = applyEvent(state, event);
    }
    const base = buildBaseState({ state, agent: {}, workspace: '/w', persistenceDir: dir, secretRegistry: {} });
    await store.write(`${dir}/base_state.json`, JSON.stringify(base));
    for (const event of after) await log.append(event);
    return store;
  }

  it('folds only the events after the checkpoint when they continue its branch', async () => {
    const title = createEvent('ConversationStateUpdateEvent', { key: 'title', value: 'Listing' });
    const store = await checkpointedDirectory([message('m0', ROOT_PARENT_ID)], [action('a1', 'm0'), title]);
    const reads: number[] = [];
    const { state, securityAnalyzer } = await load(store, reads);
    // Opening costs the events after the checkpoint, however long the history before it.
    expect(reads).toEqual([1]);
    expect(state).toMatchObject({ event_count: 3, leaf_event_id: 'a1', title: 'Listing' });
    expect(state.pending_actions.map((pending) => pending.action_id)).toEqual(['a1']);
    expect(securityAnalyzer).toBe('llm');
  });

  it("refolds the branch when the events after it left the checkpoint's HEAD: its pending action is not the new branch's", async () => {
    const store = await checkpointedDirectory(
      [message('m0', ROOT_PARENT_ID), action('a1', 'm0')],
      [message('m2', 'm0')],
    );
    const { state } = await load(store);
    expect(state).toMatchObject({ event_count: 3, leaf_event_id: 'm2', last_user_message_id: 'm2' });
    expect(state.pending_actions).toEqual([]);
  });

  it('folds the log itself when the checkpoint covers more events than the log holds', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store, { dir: `${dir}/events` });
    const first = message('m0', ROOT_PARENT_ID);
    await log.append(first);
    // A checkpoint of two events over a log that kept one (its second event file was lost).
    const state = applyEvent(applyEvent(initialConversationState({ id }), first), action('a1', 'm0'));
    const base = buildBaseState({ state, agent: {}, workspace: '/w', persistenceDir: dir, secretRegistry: {} });
    await store.write(`${dir}/base_state.json`, JSON.stringify(base));
    const loaded = await load(store);
    expect(loaded.state).toMatchObject({ event_count: 1, leaf_event_id: 'm0', pending_actions: [] });
  });
});

describe('loadPersistedState: whether a checkpoint must precede the next append', () => {
  // Needed wherever base_state.json's own HEAD or status won over the events: they would win again over every
  // event appended before the next checkpoint, leaving it off the conversation's branch.
  it("is needed for the reference's file, and for one whose HEAD the reference moved after our checkpoint", async () => {
    expect((await load(await referenceDirectory({ leaf_event_id: 'm1' }))).checkpointBeforeAppend).toBe(true);
    expect((await load(await referenceDirectory({}))).checkpointBeforeAppend).toBe(true);
    const store = await referenceDirectory(undefined);
    const state = { ...initialConversationState({ id }), event_count: 3, leaf_event_id: 'm2' };
    const base = buildBaseState({ state, agent: {}, workspace: '/w', persistenceDir: dir, secretRegistry: {} });
    await store.write(`${dir}/base_state.json`, JSON.stringify(base));
    expect((await load(store)).checkpointBeforeAppend).toBe(false);
    await store.write(`${dir}/base_state.json`, JSON.stringify({ ...base, leaf_event_id: 'm1' }));
    const moved = await load(store);
    expect(moved.state.leaf_event_id).toBe('m1');
    expect(moved.checkpointBeforeAppend).toBe(true);
  });

  it('is not needed for a log without base_state.json: its events alone decide', async () => {
    const loaded = await load(await referenceDirectory(undefined));
    expect(loaded.state.leaf_event_id).toBe('m2');
    expect(loaded.checkpointBeforeAppend).toBe(false);
  });
});
