// buildViewCheckpoint names a view's fold by log index, or answers undefined when it cannot (then no checkpoint is
// written and a resume rebuilds the view): each checkpoint is held to what it must name, built again from scratch.
import { createEvent, View } from '@x/events';
import { createMemoryFileStore, EventLog, type EventLogLike } from '@x/store';
import { describe, expect, it } from 'vitest';
import { checkpointConversation } from '../../../test/support/checkpoint-conversation.js';
import type { ConversationState } from '../../state/conversation-state.js';
import { buildViewCheckpoint } from './build-view-checkpoint.js';

const user = (text: string) =>
  createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } });
const title = (value: string) => createEvent('ConversationStateUpdateEvent', { key: 'title', value });

/** The checkpoint of a copy of the view's fold: built with nothing remembered from earlier checkpoints. */
function fresh(view: View, state: ConversationState, log: EventLogLike) {
  return buildViewCheckpoint(View.restore([...view.foldedEvents], view.unhandledCondensationRequest), state, log);
}

describe('buildViewCheckpoint', () => {
  it('names the state, the log’s last event and the view’s runs and summaries', async () => {
    const c = await checkpointConversation();
    expect(buildViewCheckpoint(c.view, c.state, c.log)).toEqual({
      version: 1,
      event_count: 0,
      last_event_id: null,
      leaf_event_id: null,
      head_is_empty: false,
      unhandled_condensation_request: false,
      entries: [],
    });
    const first = await c.append(user('a'));
    await c.append(user('b'));
    await c.append(title('t'));
    await c.append(user('c'));
    const condensation = await c.append(
      createEvent('Condensation', {
        forgotten_event_ids: [first.id],
        summary: 'a was said',
        summary_offset: 0,
        llm_response_id: 'r',
      }),
    );
    await c.append(user('d'));
    const last = await c.append(title('u'));
    await c.append(createEvent('CondensationRequest', {}));
    const checkpoint = buildViewCheckpoint(c.view, c.state, c.log);
    expect(checkpoint).toEqual({
      version: 1,
      event_count: 8,
      last_event_id: c.log.idAt(7),
      leaf_event_id: c.state.leaf_event_id,
      head_is_empty: false,
      unhandled_condensation_request: true,
      entries: [{ summary_of: 4 }, [1, 2], [3, 4], [5, 6]],
    });
    expect(c.log.idAt(4)).toBe(condensation.id);
    expect(checkpoint?.last_event_id).not.toBe(last.id);
  });

  it('finds events far apart in the log, and names what a fresh build names at every step', async () => {
    const c = await checkpointConversation();
    for (let step = 0; step < 60; step++) {
      // Between 0 and 40 state updates between two messages: the near lookup and the lookup by id both.
      for (let n = 0; n < (step * 7) % 41; n++) await c.append(title(`${step}-${n}`));
      await c.append(user(`m${step}`));
      const built = buildViewCheckpoint(c.view, c.state, c.log);
      expect(built).toEqual(fresh(c.view, c.state, c.log));
      const named = (built?.entries ?? []).flatMap((entry) =>
        Array.isArray(entry) ? Array.from({ length: entry[1] - entry[0] }, (_, k) => c.log.idAt(entry[0] + k)) : [],
      );
      expect(named).toEqual(c.view.foldedEvents.map((event) => event.id));
    }
  });

  it('names the indices of the log it is given, after a checkpoint for another log', async () => {
    const c = await checkpointConversation();
    for (let step = 0; step < 5; step++) await c.append(user(`m${step}`));
    expect(buildViewCheckpoint(c.view, c.state, c.log)?.entries).toEqual([[0, 5]]);
    // The same events one index later in another log.
    const other = await EventLog.open(createMemoryFileStore(), { dir: 'other/events' });
    await other.append(title('first'));
    for (let index = 0; index < c.log.length; index++) await other.append(await c.log.get(index));
    const state = { ...c.state, event_count: other.length };
    expect(buildViewCheckpoint(c.view, state, other)?.entries).toEqual([[1, 6]]);
    expect(buildViewCheckpoint(c.view, c.state, c.log)?.entries).toEqual([[0, 5]]);
  });

  it('is undefined when the view is not restorable, or names events its state or log does not hold', async () => {
    const c = await checkpointConversation();
    for (let step = 0; step < 3; step++) await c.append(user(`m${step}`));
    // A state past the end of the log, or one from before the view's last event (also right after a checkpoint of
    // the whole view, whose names are not reused past the state's events).
    expect(buildViewCheckpoint(c.view, { ...c.state, event_count: 4 }, c.log)).toBeUndefined();
    expect(buildViewCheckpoint(c.view, c.state, c.log)?.entries).toEqual([[0, 3]]);
    expect(buildViewCheckpoint(c.view, { ...c.state, event_count: 2 }, c.log)).toBeUndefined();
    // An event the log does not hold.
    const stranger = View.restore([...c.view.foldedEvents, user('never written')], false);
    expect(buildViewCheckpoint(stranger, c.state, c.log)).toBeUndefined();
    // A summary whose Condensation the log does not hold, and one whose id names no Condensation at all.
    const condensation = createEvent('Condensation', {
      forgotten_event_ids: [],
      summary: 'lost',
      summary_offset: 0,
      llm_response_id: 'r',
    });
    const summarized = View.fromEvents([condensation]).foldedEvents[0]!;
    expect(summarized.kind).toBe('CondensationSummaryEvent');
    expect(buildViewCheckpoint(View.restore([summarized], false), c.state, c.log)).toBeUndefined();
    const odd = { ...summarized, id: c.log.idAt(0) } as typeof summarized;
    expect(buildViewCheckpoint(View.restore([odd], false), c.state, c.log)).toBeUndefined();
    // A tool call the view still waits for is kept in the fold; an orphan result makes the view unrestorable.
    await c.append(
      createEvent('ObservationEvent', {
        tool_name: 'terminal',
        tool_call_id: 'never-called',
        action_id: 'no-action',
        observation: { content: [], kind: 'TerminalObservation' },
      }),
    );
    expect(c.view.restorable).toBe(false);
    expect(buildViewCheckpoint(c.view, c.state, c.log)).toBeUndefined();
  });

  it('puts a summary between the runs around it, even when their log indices follow each other', async () => {
    const c = await checkpointConversation();
    const first = await c.append(user('a'));
    await c.append(user('b'));
    await c.append(user('c'));
    // The summary goes after b (offset 1 of [b, c]): b (index 1) and c (index 2) are adjacent in the log.
    await c.append(
      createEvent('Condensation', {
        forgotten_event_ids: [first.id],
        summary: 's',
        summary_offset: 1,
        llm_response_id: 'r',
      }),
    );
    expect(c.view.foldedEvents.map((event) => event.kind)).toEqual([
      'MessageEvent',
      'CondensationSummaryEvent',
      'MessageEvent',
    ]);
    // A state that does not hold the Condensation yet cannot name the summary.
    expect(buildViewCheckpoint(c.view, { ...c.state, event_count: 3 }, c.log)).toBeUndefined();
    expect(buildViewCheckpoint(c.view, c.state, c.log)?.entries).toEqual([[1, 2], { summary_of: 3 }, [2, 3]]);
    // A state without head_is_empty (an older base_state) is written as a HEAD that is not empty.
    const older = { ...c.state, head_is_empty: undefined } as unknown as ConversationState;
    expect(buildViewCheckpoint(c.view, older, c.log)?.head_is_empty).toBe(false);
  });

  it('names only the events appended since the last checkpoint of the view, each found without a lookup by id', async () => {
    const c = await checkpointConversation();
    const lookups = { idAt: 0, indexOf: 0 };
    const log = new Proxy(c.log, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (key === 'idAt' || key === 'indexOf') lookups[key] += 1;
          return value.apply(target, args);
        };
      },
    });
    for (let step = 0; step < 100; step++) {
      await c.append(user(`m${step}`));
      await c.append(title(`t${step}`));
    }
    expect(buildViewCheckpoint(c.view, c.state, log)?.entries).toHaveLength(100);
    // A long history costs one near look per event, never a scan of the log's names.
    expect(lookups.indexOf).toBe(0);
    await c.append(user('next'));
    lookups.idAt = 0;
    const built = buildViewCheckpoint(c.view, c.state, log);
    expect(built).toEqual(fresh(c.view, c.state, c.log));
    // A few looks (the last named event, the new one, the log's last), not one per event of the history.
    expect(lookups.idAt).toBeLessThan(10);
    expect(lookups.indexOf).toBe(0);
  });

  it('names a summary whose Condensation is the log’s first event, and reuses it when the view ends with it', async () => {
    const c = await checkpointConversation();
    const lookups = { indexOf: 0 };
    const log = new Proxy(c.log, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (key === 'indexOf') lookups.indexOf += 1;
          return value.apply(target, args);
        };
      },
    });
    await c.append(
      createEvent('Condensation', { forgotten_event_ids: [], summary: 's', summary_offset: 0, llm_response_id: 'r' }),
    );
    expect(c.view.foldedEvents.map((event) => event.kind)).toEqual(['CondensationSummaryEvent']);
    expect(buildViewCheckpoint(c.view, c.state, log)?.entries).toEqual([{ summary_of: 0 }]);
    await c.append(user('after the summary'));
    lookups.indexOf = 0;
    const built = buildViewCheckpoint(c.view, c.state, log);
    expect(built?.entries).toEqual([{ summary_of: 0 }, [1, 2]]);
    expect(built).toEqual(fresh(c.view, c.state, c.log));
    // The summary named last time is not looked up again.
    expect(lookups.indexOf).toBe(0);
  });
});
