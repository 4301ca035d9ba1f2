import { type AnyEvent, createEvent } from '@x/events';
import { createMemoryFileStore, EventLog, type FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { initialConversationState } from '../state/conversation-state.js';
import { ConversationEvents } from './conversation-events.js';
import { EventFold } from './event-fold.js';

const DIR = 'conv/events';
const alone = { shared: false, lease: undefined, assertOwner: async () => {} };

/** `ConversationEvents` over its own log instance of `store` (another process opens another instance). */
async function eventsOn(store: FileStore) {
  const log = await EventLog.open(store, { dir: DIR });
  const fold = new EventFold(log, initialConversationState({ id: 'c' }));
  const announced: [AnyEvent, number | undefined][] = [];
  const events = new ConversationEvents({ log, fold, ownership: alone });
  events.subscribe((event, index) => announced.push([event, index]));
  return { log, fold, events, announced };
}

const message = (text: string) =>
  createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } });

/** A stats update whose only usage id has spent `cost`. */
const statsUpdate = (cost: number) =>
  createEvent('ConversationStateUpdateEvent', {
    key: 'stats',
    value: {
      usage_to_metrics: {
        agent: {
          model_name: 'm',
          accumulated_cost: cost,
          accumulated_token_usage: {
            model: 'm',
            prompt_tokens: 0,
            completion_tokens: 0,
            cache_read_tokens: 0,
            cache_write_tokens: 0,
            reasoning_tokens: 0,
            context_window: 0,
            per_turn_token: 0,
            response_id: '',
          },
        },
      },
    },
  });

const costOf = (stats: { usage_to_metrics: Record<string, { accumulated_cost: number }> }) =>
  stats.usage_to_metrics.agent?.accumulated_cost;

describe('ConversationEvents with another process appending to the same log', () => {
  it('folds what the other appended before its own event, which lands after it', async () => {
    const store = createMemoryFileStore();
    const here = await eventsOn(store);
    await here.events.emit(message('first'));
    const other = await EventLog.open(store, { dir: DIR });
    const theirs = createEvent('ConversationStateUpdateEvent', { key: 'title', value: 'Named elsewhere' });
    await other.append(theirs);

    const mine = message('mine');
    await here.events.emit(mine);
    expect(here.fold.state.event_count).toBe(3);
    expect(await here.log.get(1)).toMatchObject({ id: theirs.id });
    expect(here.announced.map(([event, index]) => [event.id, index])).toEqual([
      [here.announced[0]![0].id, 0],
      [mine.id, 2],
    ]);
    expect(here.fold.state.title).toBe('Named elsewhere');
    expect(here.fold.state.last_user_message_id).toBe(mine.id);
  });
});

describe('ConversationEvents: stats updates held for the next event', () => {
  it('builds on the last held update, and writes every held one with the next event, in order', async () => {
    const { events, fold, log } = await eventsOn(createMemoryFileStore());
    await events.emit(message('go'));
    events.hold(statsUpdate(1));
    events.hold(statsUpdate(3));
    expect(costOf(events.latestStats())).toBe(3);
    expect(log.length).toBe(1);
    await events.emit(message('next'));
    expect((await log.range(1, 4)).map((event) => event.kind)).toEqual([
      'ConversationStateUpdateEvent',
      'ConversationStateUpdateEvent',
      'MessageEvent',
    ]);
    expect(costOf(fold.state.stats)).toBe(3);
    expect(costOf(events.latestStats())).toBe(3);
  });

  it('writes what no event took along when flushed (a checkpoint), one held update or several', async () => {
    const { events, fold, log } = await eventsOn(createMemoryFileStore());
    await events.emit(message('go'));
    events.hold(statsUpdate(2));
    await events.flushHeld();
    expect(log.length).toBe(2);
    expect(costOf(fold.state.stats)).toBe(2);
    events.hold(statsUpdate(4));
    events.hold(statsUpdate(5));
    await events.flushHeld();
    expect(log.length).toBe(4);
    expect(costOf(fold.state.stats)).toBe(5);
    await events.flushHeld();
    expect(log.length).toBe(4);
  });
});
