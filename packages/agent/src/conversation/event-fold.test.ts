// EventFold keeps what a conversation derives from its events (state, view, recent events) in step with the log:
// each is held to what reading the log from scratch gives.
import { type AnyEvent, createEvent, parentForAppend, View, withParent } from '@x/events';
import { createMemoryFileStore, EventLog } from '@x/store';
import { describe, expect, it } from 'vitest';
import { applyEvent } from '../state/apply-event.js';
import { initialConversationState } from '../state/conversation-state.js';
import { readBranch } from './branch-history.js';
import { EventFold, RECENT_EVENTS } from './event-fold.js';
import { buildViewCheckpoint, VIEW_CHECKPOINT_FILE } from './view-checkpoint/index.js';

const message = (text: string) =>
  createEvent('MessageEvent', {
    id: text,
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
  });
const update = (value: string) => createEvent('ConversationStateUpdateEvent', { key: 'title', value });
const ids = (events: readonly AnyEvent[]) => events.map((event) => event.id);

async function setup() {
  const store = createMemoryFileStore();
  const log = await EventLog.open(store, { dir: 'conv/events' });
  const fold = new EventFold(log, initialConversationState({ id: 'c' }));
  /** Appends `event` after HEAD (or after `parent`), as a conversation stamps it, and folds it. */
  const append = async (event: AnyEvent, parent?: string, into: EventFold = fold) => {
    const to =
      event.kind === 'ConversationStateUpdateEvent'
        ? undefined
        : (parent ?? parentForAppend(into.leafEventId, log.length));
    const stamped = to === undefined ? event : withParent(event, to);
    await log.append(stamped);
    into.apply(stamped);
    return stamped;
  };
  /** The view a resume without a checkpoint builds: the active branch of the log, from scratch. */
  const rebuilt = async (at: EventFold = fold) => {
    const { branch } = await readBranch(log, at.state.leaf_event_id, at.state.head_is_empty);
    return View.fromEvents(branch);
  };
  return { store, log, fold, append, rebuilt };
}

describe('EventFold', () => {
  it('keeps a built view up to date, and rebuilds it when an event leaves the active branch', async () => {
    const { store, fold, append, rebuilt } = await setup();
    for (let index = 0; index < 5; index++) await append(message(`m${index}`));
    expect(fold.builtView).toBeUndefined();
    const view = await fold.view(store, 'conv');
    expect(ids(view.events)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);

    await append(update('a title'));
    await append(message('m5'));
    expect(fold.builtView).toBe(view);
    expect(await fold.view(store, 'conv')).toBe(view);
    expect(ids(view.events)).toEqual(ids((await rebuilt()).events));
    expect(view.events).toHaveLength(6);

    // Another writer moved HEAD back to m2 and answered there: the kept view is of the old branch.
    await append(message('b0'), 'm2');
    expect(fold.builtView).toBeUndefined();
    const branched = await fold.view(store, 'conv');
    expect(ids(branched.events)).toEqual(['m0', 'm1', 'm2', 'b0']);
    expect(ids(branched.events)).toEqual(ids((await rebuilt()).events));
    await append(message('b1'));
    expect(ids(branched.events)).toEqual(['m0', 'm1', 'm2', 'b0', 'b1']);
  });

  it('folds the events it has not seen, up to an index or the whole log', async () => {
    const { log, fold, append } = await setup();
    for (let index = 0; index < 6; index++) await append(index % 2 === 0 ? message(`m${index}`) : update(`t${index}`));
    const late = new EventFold(log, initialConversationState({ id: 'c' }));
    await late.applyMissing(3);
    expect(late.state.event_count).toBe(3);
    expect(late.leafEventId).toBe('m2');
    await late.applyMissing();
    expect(late.state).toEqual(fold.state);
    const expected = (await log.range(0, log.length)).reduce(applyEvent, initialConversationState({ id: 'c' }));
    expect(late.state).toEqual(expected);
    expect(late.leafEventId).toBe('m4');
  });

  it('has no leaf while HEAD is empty', () => {
    const state = { ...initialConversationState({ id: 'c' }), leaf_event_id: 'm0', head_is_empty: true };
    const fold = new EventFold(undefined as never, state);
    expect(fold.leafEventId).toBeUndefined();
    expect(new EventFold(undefined as never, { ...state, head_is_empty: false }).leafEventId).toBe('m0');
  });

  it('keeps at least the last RECENT_EVENTS events for stuck detection, state updates left out', async () => {
    const { fold, append } = await setup();
    const applied: AnyEvent[] = [];
    for (let index = 0; index < RECENT_EVENTS * 5; index++) {
      applied.push(await append(index % 3 === 2 ? update(`t${index}`) : message(`m${index}`)));
      const recent = fold.recentEvents();
      const nodes = applied.filter((event) => event.kind !== 'ConversationStateUpdateEvent');
      expect(recent).toEqual(nodes.slice(nodes.length - recent.length));
      // Of the last RECENT_EVENTS events, two in three are messages.
      expect(recent.length).toBeGreaterThanOrEqual(Math.min(nodes.length, Math.floor((RECENT_EVENTS * 2) / 3)));
      expect(recent.length).toBeLessThanOrEqual(RECENT_EVENTS * 2);
    }
  });

  it('puts the history of the active branch before the events folded since opening, once', async () => {
    const { log, fold, append } = await setup();
    for (let index = 0; index < RECENT_EVENTS + 10; index++) await append(message(`m${index}`));
    const last = `m${RECENT_EVENTS + 9}`;
    // An abandoned branch at the end of the log: HEAD moved on from the main branch's last event.
    await append(message('abandoned'), 'm50');
    await append(message('y'), last);
    await append(update('t'));

    const reopened = new EventFold(log, fold.state);
    reopened.deferHistory(log.length);
    await append(message('z'), undefined, reopened);
    await reopened.readRecentHistory();
    const branch = ids((await readBranch(log, 'z', false)).branch);
    const recent = ids(reopened.recentEvents());
    expect(recent).toEqual(branch.slice(-RECENT_EVENTS - 1));
    expect(recent).not.toContain('abandoned');
    expect(recent.slice(-3)).toEqual([last, 'y', 'z']);
    await reopened.readRecentHistory();
    expect(ids(reopened.recentEvents())).toEqual(recent);

    // Nothing folded since opening: the history ends at HEAD.
    const idle = new EventFold(log, reopened.state);
    idle.deferHistory(log.length);
    await idle.readRecentHistory();
    expect(ids(idle.recentEvents())).toEqual(branch.slice(-RECENT_EVENTS));
  });

  it('takes its view from a matching view checkpoint, unless an event was folded while it was read', async () => {
    const { store, log, fold, append, rebuilt } = await setup();
    for (let index = 0; index < 4; index++) {
      await append(update(`t${index}`));
      await append(message(`m${index}`));
    }
    // A checkpoint that names only the last message: what the fold's view holds tells which way it was built.
    const checkpoint = buildViewCheckpoint(await rebuilt(), fold.state, log)!;
    const partial = { ...checkpoint, entries: [checkpoint.entries.at(-1)] };
    await store.write(`conv/${VIEW_CHECKPOINT_FILE}`, JSON.stringify(partial));

    const resumed = new EventFold(log, fold.state);
    const restored = await resumed.view(store, 'conv');
    expect(ids(restored.events)).toEqual(['m3']);
    // Kept and followed like a built one.
    expect(resumed.builtView).toBe(restored);
    const followed = new EventFold(log, fold.state);
    const view = await followed.view(store, 'conv');
    followed.apply(withParent(message('x'), 'm3'));
    expect(await followed.view(store, 'conv')).toBe(view);
    expect(ids(view.events)).toEqual(['m3', 'x']);

    // An event folded while the checkpoint is read: the restored view would lack it, so the log is read instead.
    const racing = new EventFold(log, fold.state);
    const next = withParent(message('m4'), 'm3');
    await log.append(next);
    const pending = racing.view(store, 'conv');
    racing.apply(next);
    expect(ids((await pending).events)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(racing.builtView).toBe(await pending);
  });

  it('takes the state, view and recent events of the branch HEAD moves to, and drops the unread history', async () => {
    const { store, log, fold, append } = await setup();
    for (let index = 0; index < RECENT_EVENTS + 40; index++) await append(message(`m${index}`));
    await fold.view(store, 'conv');
    fold.deferHistory(log.length);
    // Longer than the recent events kept: history read after the move would go in front of them.
    const target = `m${RECENT_EVENTS + 30}`;
    const { branch } = await readBranch(log, target, false);
    const state = branch.reduce(applyEvent, initialConversationState({ id: 'c' }));
    fold.moveHead({ state, branch });
    expect(fold.state).toBe(state);
    expect(fold.leafEventId).toBe(target);
    expect(ids((await fold.view(store, 'conv')).events)).toEqual(ids(branch));
    expect(ids(fold.recentEvents())).toEqual(ids(branch.slice(-RECENT_EVENTS)));
    await fold.readRecentHistory();
    expect(ids(fold.recentEvents())).toEqual(ids(branch.slice(-RECENT_EVENTS)));
  });
});
