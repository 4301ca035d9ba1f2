import { type AnyEvent, createEvent } from '@x/events';
import { createMemoryFileStore, EventLog } from '@x/store';
import { describe, expect, it } from 'vitest';
import { initialConversationState } from '../state/conversation-state.js';
import { ConversationEvents } from './conversation-events.js';
import { EventFold } from './event-fold.js';
import { HookBlocks } from './hook-blocks.js';

/** Real events over a memory log, with `HookBlocks` on them as a conversation wires it; `settled` counts its calls. */
async function setup() {
  const log = await EventLog.open(createMemoryFileStore(), { dir: 'conv/events' });
  const fold = new EventFold(log, initialConversationState({ id: 'c' }));
  const owner = { lost: false };
  const ownership = {
    shared: false,
    lease: undefined,
    assertOwner: async () => {
      if (owner.lost) throw new Error('taken over');
    },
  };
  const events = new ConversationEvents({ log, fold, ownership });
  let settledCalls = 0;
  const blocks = new HookBlocks({
    state: () => fold.state,
    settled: () => {
      settledCalls++;
      return events.settled();
    },
    idle: () => events.idle,
    emit: (event: AnyEvent) => events.emit(event),
    assertOpen: () => {},
    checkpointUnlessRunning: async () => {},
  });
  return { events, fold, blocks, owner, settledCalls: () => settledCalls };
}

const blockEvent = (id: string, reason: string) =>
  createEvent('ConversationStateUpdateEvent', { key: 'blocked_actions', value: { [id]: reason } });

describe('ConversationEvents.idle', () => {
  it('is false while an event is queued and true once it is applied, after a failed append too', async () => {
    const { events, fold, owner } = await setup();
    expect(events.idle).toBe(true);
    const first = events.emit(createEvent('PauseEvent', { source: 'user' }));
    const second = events.emit(createEvent('PauseEvent', { source: 'user' }));
    expect(events.idle).toBe(false);
    await first;
    expect(events.idle).toBe(false);
    await second;
    expect(events.idle).toBe(true);
    expect(fold.state.event_count).toBe(2);
    // An emit that fails (another owner took the conversation over): the queue still empties.
    owner.lost = true;
    const refused = events.emit(createEvent('PauseEvent', { source: 'user' }));
    expect(events.idle).toBe(false);
    await expect(refused).rejects.toThrow('taken over');
    expect(events.idle).toBe(true);
  });
});

describe('HookBlocks.popIfAny', () => {
  it('answers at once when nothing is queued and the action is not blocked', async () => {
    const { blocks, settledCalls } = await setup();
    await expect(blocks.popIfAny('blocked_actions', 'a1')).resolves.toBeUndefined();
    await expect(blocks.popIfAny('blocked_actions', undefined)).resolves.toBeUndefined();
    expect(settledCalls()).toBe(0);
  });

  it('sees a block whose event is still queued (waits for it), and removes it', async () => {
    const { events, fold, blocks } = await setup();
    const queued = events.emit(blockEvent('a1', 'no'));
    expect(fold.state.blocked_actions).toEqual({});
    await expect(blocks.popIfAny('blocked_actions', 'a1')).resolves.toBe('no');
    await queued;
    expect(fold.state.blocked_actions).toEqual({});
  });

  it('returns a block already applied and removes it; the next ask finds none', async () => {
    const { events, fold, blocks } = await setup();
    await events.emit(blockEvent('a1', 'hook said no'));
    expect(events.idle).toBe(true);
    await expect(blocks.popIfAny('blocked_actions', 'a1')).resolves.toBe('hook said no');
    expect(fold.state.blocked_actions).toEqual({});
    await expect(blocks.popIfAny('blocked_actions', 'a1')).resolves.toBeUndefined();
  });
});

describe('HookBlocks and event ids named like inherited properties', () => {
  const names = ['constructor', 'toString', 'hasOwnProperty'];

  it('finds no block for such an id unless one was set', async () => {
    const { events, blocks } = await setup();
    await events.emit(blockEvent('other', 'no'));
    for (const name of names) {
      await expect(blocks.popIfAny('blocked_messages', name)).resolves.toBeUndefined();
      await expect(blocks.popIfAny('blocked_actions', name)).resolves.toBeUndefined();
      await expect(blocks.pop('blocked_actions', name)).resolves.toBeUndefined();
    }
    // Queued: the slow path answers the same.
    const queued = events.emit(blockEvent('later', 'no'));
    await expect(blocks.popIfAny('blocked_actions', 'constructor')).resolves.toBeUndefined();
    await queued;
  });

  it('blocks and unblocks such an id like any other', async () => {
    const { fold, blocks } = await setup();
    for (const name of names) await blocks.block('blocked_messages', name, `no ${name}`);
    expect(Object.keys(fold.state.blocked_messages)).toEqual(names);
    for (const name of names) await expect(blocks.popIfAny('blocked_messages', name)).resolves.toBe(`no ${name}`);
    expect(fold.state.blocked_messages).toEqual({});
  });
});
