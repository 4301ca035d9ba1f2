// restoreView takes a view checkpoint only when it matches the log and the state, and then gives exactly the view a
// full rebuild gives; whenever anything does not match it answers undefined (the caller rebuilds from the log).
import { type AnyEvent, createEvent, ROOT_PARENT_ID, View, withParent } from '@x/events';
import { createMemoryFileStore, EventLog, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { applyEvent } from '../../state/apply-event.js';
import { type ConversationState, initialConversationState } from '../../state/conversation-state.js';
import { buildViewCheckpoint } from './build-view-checkpoint.js';
import { restoreView } from './restore-view.js';
import { VIEW_CHECKPOINT_FILE, type ViewCheckpoint } from './view-checkpoint-file.js';

const PATH = `conversation/${VIEW_CHECKPOINT_FILE}`;

const user = (text: string) =>
  createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } });
const title = (value: string) => createEvent('ConversationStateUpdateEvent', { key: 'title', value });

/** A conversation over a memory log: events appended after HEAD (state updates stamped, HEAD kept), folded, viewed. */
async function conversation() {
  const store: FileStore = createMemoryFileStore();
  const log = await EventLog.open(store, { dir: 'conversation/events' });
  let state: ConversationState = initialConversationState({ id: 'c' });
  let parent: string = ROOT_PARENT_ID;
  const all: AnyEvent[] = [];
  const self = {
    store,
    log,
    get state() {
      return state;
    },
    async append(event: AnyEvent, options: { parent?: string } = {}): Promise<AnyEvent> {
      const stamped = withParent(event, options.parent ?? parent);
      await log.append(stamped);
      state = applyEvent(state, stamped);
      all.push(stamped);
      if (event.kind !== 'ConversationStateUpdateEvent') parent = stamped.id;
      return stamped;
    },
    /** The view a resume without a checkpoint builds: the branch ending at HEAD, from scratch. */
    rebuilt(): View {
      const byId = new Map(all.map((event) => [event.id, event]));
      const branch: AnyEvent[] = [];
      for (let id: string | undefined = state.leaf_event_id; id !== undefined && id !== ROOT_PARENT_ID; ) {
        const event = byId.get(id)!;
        branch.unshift(event);
        id = event.parent_id;
      }
      return View.fromEvents(branch);
    },
    /** Writes the checkpoint of the view of the log as it is now (changed by `edit`); returns it. */
    async checkpoint(edit: (checkpoint: ViewCheckpoint) => object = (checkpoint) => checkpoint) {
      const checkpoint = buildViewCheckpoint(self.rebuilt(), state, log);
      expect(checkpoint).toBeDefined();
      await store.write(PATH, JSON.stringify(edit(checkpoint!)));
      return checkpoint!;
    },
    restore(at: ConversationState = state) {
      return restoreView({ store, directory: 'conversation', log, state: at });
    },
  };
  return self;
}

const ids = (view: View | undefined) => view?.events.map((event) => event.id);
const folded = (view: View | undefined) => view?.foldedEvents.map((event) => event.id);

/** A few steps: user messages with a state update between them, a condensation with a summary, a request. */
async function steps(c: Awaited<ReturnType<typeof conversation>>, count: number, from = 0): Promise<void> {
  for (let step = from; step < from + count; step++) {
    await c.append(title(`t${step}`));
    await c.append(user(`m${step}`));
  }
}

describe('restoreView', () => {
  it('gives the rebuilt view, with the events appended after the checkpoint and a pending request', async () => {
    const c = await conversation();
    await c.append(createEvent('SystemPromptEvent', { system_prompt: { type: 'text', text: 'agent' }, tools: [] }));
    await steps(c, 6);
    const forgotten = c
      .rebuilt()
      .events.slice(1, 3)
      .map((event) => event.id);
    const condensation = await c.append(
      createEvent('Condensation', {
        forgotten_event_ids: forgotten,
        summary: 'earlier',
        summary_offset: 1,
        llm_response_id: 'r1',
      }),
    );
    await steps(c, 3, 6);
    await c.append(createEvent('CondensationRequest', {}));
    await c.checkpoint();
    const restored = await c.restore();
    expect(ids(restored)).toEqual(ids(c.rebuilt()));
    expect(folded(restored)).toEqual(folded(c.rebuilt()));
    expect(ids(restored)?.[1]).toBe(`${condensation.id}-summary`);
    expect(restored?.unhandledCondensationRequest).toBe(true);

    // Events appended since (the tail): applied on top.
    await steps(c, 4, 9);
    const later = await c.restore();
    expect(ids(later)).toEqual(ids(c.rebuilt()));
    expect(later?.unhandledCondensationRequest).toBe(true);

    // The restored view's next checkpoint (which reuses what the restore named) names what one built from scratch does.
    for (let step = 13; step < 16; step++) {
      await c.append(title(`t${step}`));
      const message = await c.append(user(`m${step}`));
      later!.append(message);
      const scratch = View.restore([...later!.foldedEvents], later!.unhandledCondensationRequest);
      expect(buildViewCheckpoint(later!, c.state, c.log)).toEqual(buildViewCheckpoint(scratch, c.state, c.log));
    }
    expect(ids(later)).toEqual(ids(c.rebuilt()));
  });

  it('gives the rebuilt view when the tail repeats the response id of a batch a condensation forgot', async () => {
    // The reference continuing x's conversation with a model that reuses response ids: its action in the tail joins
    // the forgotten batch, so the rebuild drops it and its result (BatchAtomicity), which the checkpoint's events
    // alone cannot tell.
    const action = (call: string) =>
      createEvent('ActionEvent', {
        source: 'agent',
        thought: [],
        thinking_blocks: [],
        tool_name: 'think',
        tool_call_id: call,
        tool_call: { id: call, name: 'think', arguments: '{}', origin: 'completion' },
        llm_response_id: 'resp-1',
      });
    const result = (call: string) =>
      createEvent('AgentErrorEvent', { source: 'agent', tool_name: 'think', tool_call_id: call, error: 'no' });
    const c = await conversation();
    await c.append(user('a'));
    const first = [await c.append(action('c1')), await c.append(result('c1'))];
    await c.append(
      createEvent('Condensation', { forgotten_event_ids: first.map((event) => event.id), llm_response_id: 'r' }),
    );
    await c.append(user('b'));
    await c.checkpoint();
    await c.append(action('c2'));
    await c.append(result('c2'));
    await c.append(user('c'));
    expect(ids(c.rebuilt())).toHaveLength(3);
    const restored = await c.restore();
    expect(restored === undefined ? ids(c.rebuilt()) : ids(restored)).toEqual(ids(c.rebuilt()));
  });

  it('restores an empty checkpoint, and one with a tail of exactly 512 events', async () => {
    const c = await conversation();
    await c.checkpoint();
    expect(ids(await c.restore())).toEqual([]);
    await c.append(user('first'));
    await c.checkpoint();
    await steps(c, 256);
    expect(c.state.event_count - 1).toBe(512);
    expect(ids(await c.restore())).toEqual(ids(c.rebuilt()));
    await c.append(title('one more'));
    expect(await c.restore()).toBeUndefined();
  });

  it('reads runs that cross the pieces the log is read in, and a summary between two runs', async () => {
    const c = await conversation();
    await steps(c, 700);
    const forgotten = c
      .rebuilt()
      .events.slice(0, 5)
      .map((event) => event.id);
    await c.append(
      createEvent('Condensation', {
        forgotten_event_ids: forgotten,
        summary: 'early',
        summary_offset: 3,
        llm_response_id: 'r1',
      }),
    );
    await steps(c, 700, 700);
    // Runs far apart (more than the gap read as one span): state updates in a row between two messages.
    for (let n = 0; n < 80; n++) await c.append(title(`quiet ${n}`));
    await steps(c, 3, 1400);
    const checkpoint = await c.checkpoint();
    expect(checkpoint.entries.some((entry) => !Array.isArray(entry))).toBe(true);
    const restored = await c.restore();
    expect(ids(restored)).toEqual(ids(c.rebuilt()));
    expect(restored?.events.length).toBe(1403 - 5 + 1);
  });

  it('reads an uncondensed view (one run per step, a state update between) in one span, not a read per run', async () => {
    const c = await conversation();
    await steps(c, 100);
    await c.checkpoint();
    const ranges: [number, number][] = [];
    const log = new Proxy(c.log, {
      get(target, key) {
        if (key === 'range')
          return (from: number, to: number) => {
            ranges.push([from, to]);
            return target.range(from, to);
          };
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const restored = await restoreView({ store: c.store, directory: 'conversation', log, state: c.state });
    expect(ids(restored)).toEqual(ids(c.rebuilt()));
    // The view's span, then the (empty) tail after the checkpoint.
    expect(ranges).toEqual([
      [1, 200],
      [200, 200],
    ]);
  });

  describe('answers undefined when the checkpoint does not match', () => {
    async function matched() {
      const c = await conversation();
      await steps(c, 5);
      return c;
    }

    it('a state from before the checkpoint, or one past the end of the log', async () => {
      const c = await matched();
      const before = c.state;
      await steps(c, 1, 5);
      await c.checkpoint();
      expect(await c.restore(before)).toBeUndefined();
      expect(await c.restore({ ...c.state, event_count: c.log.length + 1 })).toBeUndefined();
      expect(await c.restore()).toBeDefined();
    });

    it('another log (its last event id), or none at all', async () => {
      const c = await matched();
      await c.checkpoint((checkpoint) => ({ ...checkpoint, last_event_id: 'elsewhere' }));
      expect(await c.restore()).toBeUndefined();
      await c.checkpoint((checkpoint) => ({ ...checkpoint, last_event_id: null }));
      expect(await c.restore()).toBeUndefined();
      await c.store.write(PATH, '{');
      expect(await c.restore()).toBeUndefined();
      await c.store.delete(PATH);
      expect(await c.restore()).toBeUndefined();
    });

    it('an entry that names something else than view events, or indices outside the checkpoint', async () => {
      const c = await matched();
      // A Condensation without a summary, at index 10.
      await c.append(createEvent('Condensation', { forgotten_event_ids: [], llm_response_id: 'r2' }));
      // Index 0 is a state update; 9 is the last message (a run [9, 10] is the last entry).
      const edits: ((entries: ViewCheckpoint['entries']) => unknown[])[] = [
        (entries) => [[0, 2], ...entries.slice(1)],
        (entries) => [...entries.slice(0, -1), [9, 11]],
        (entries) => [...entries.slice(0, -1), [9, 9]],
        (entries) => [...entries, { summary_of: 3 }],
        (entries) => [...entries, { summary_of: 11 }],
        (entries) => [...entries, { summary_of: 10 }],
      ];
      for (const edit of edits) {
        await c.checkpoint((checkpoint) => ({ ...checkpoint, entries: edit(checkpoint.entries) }));
        expect(await c.restore()).toBeUndefined();
      }
      await c.checkpoint();
      expect(ids(await c.restore())).toEqual(ids(c.rebuilt()));
    });

    it('a tail that leaves the branch, or ends elsewhere than the state’s HEAD', async () => {
      const c = await matched();
      await c.checkpoint();
      const branchPoint = c.rebuilt().events[1]!.id;
      // A state update stamped with another parent is no tree node: it does not leave the branch.
      await c.append(title('stamped elsewhere'), { parent: branchPoint });
      expect(ids(await c.restore())).toEqual(ids(c.rebuilt()));
      await c.append(user('aside'), { parent: branchPoint });
      expect(await c.restore()).toBeUndefined();

      const d = await matched();
      await d.checkpoint();
      const previous = d.state.leaf_event_id!;
      await d.append(user('next'));
      expect(await d.restore({ ...d.state, leaf_event_id: previous })).toBeUndefined();
      expect(await d.restore({ ...d.state, head_is_empty: true })).toBeUndefined();
      expect(ids(await d.restore())).toEqual(ids(d.rebuilt()));

      // A summary entry naming the first event after the checkpoint (a summarized Condensation in the tail).
      const e = await matched();
      await e.checkpoint((checkpoint) => ({ ...checkpoint, entries: [...checkpoint.entries, { summary_of: 10 }] }));
      await e.append(
        createEvent('Condensation', {
          forgotten_event_ids: [],
          summary: 'later',
          summary_offset: 0,
          llm_response_id: 'r',
        }),
      );
      expect(await e.restore()).toBeUndefined();
    });
  });
});
