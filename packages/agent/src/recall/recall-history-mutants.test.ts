import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { eventSummaryText } from '../condenser/internal/event-summary-text.js';
import { recallFromHistory } from './recall-history.js';
import { DEFAULT_RECALL_LIMITS } from './recall-limits.js';

// The edges of each recall mode: where a range may start and end, when a cap is reached exactly, and how the
// result counts what it holds.
const message = (text: string) =>
  createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } });

/** 0-3 messages (0 and 1 forgotten), 4 a state update, 5 the condensation, 6 a message. */
function history(): AnyEvent[] {
  const events: AnyEvent[] = [
    message('alpha apple'),
    message('beta apple'),
    message('gamma'),
    message('delta'),
    createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'running' }),
  ];
  events.push(
    createEvent('Condensation', {
      forgotten_event_ids: [events[0]!.id, events[1]!.id],
      summary: 'Fruit was named.',
      summary_offset: 0,
      llm_response_id: 'r1',
    }),
    message('epsilon'),
  );
  return events;
}

const limits = DEFAULT_RECALL_LIMITS;

describe('recall ranges', () => {
  it('reads the last event as a one-event range, and counts what the model can read', () => {
    const events = history();
    const last = recallFromHistory(events, { start_index: 6, end_index: 6 }, limits);
    expect(last.eventIds).toEqual([events[6]!.id]);
    expect(last.text.split('\n')[0]).toBe('Events 6-6 (1 the model can read; state updates and condensations skipped)');
    expect(last.text).not.toContain('past the end');
    expect(last.truncated).toBe(false);

    const middle = recallFromHistory(events, { start_index: 2, end_index: 5 }, limits);
    expect(middle.eventIds).toEqual([events[2]!.id, events[3]!.id]);
    expect(middle.text.split('\n')[0]).toBe(
      'Events 2-5 (2 the model can read; state updates and condensations skipped)',
    );
  });

  it('without end_index reads max_results positions and says nothing of an end', () => {
    const events = history();
    const result = recallFromHistory(events, { start_index: 1, max_results: 3 }, limits);
    expect(result.eventIds).toEqual([1, 2, 3].map((index) => events[index]!.id));
    expect(result.text).not.toContain('end_index');
    expect(result.truncated).toBe(false);
  });

  it('returns exactly max_results events without calling it truncated', () => {
    const events = history();
    const result = recallFromHistory(events, { start_index: 0, end_index: 6, max_results: 5 }, limits);
    expect(result.eventIds).toEqual([0, 1, 2, 3, 6].map((index) => events[index]!.id));
    expect(result.truncated).toBe(false);
    expect(result.text).not.toContain('[truncated');
  });
});

describe('recall searches', () => {
  it('says "1 match" for one, and nothing about forgetting once something was forgotten', () => {
    const events = history();
    const one = recallFromHistory(events, { query: 'alpha' }, limits);
    expect(one.text.split('\n')[0]).toBe('Search of the events condensation forgot for "alpha": 1 match');
    expect(one.text).not.toContain('Nothing has been forgotten');
    const visible = recallFromHistory(events.slice(0, 4), { query: 'gamma', include_visible: true }, limits);
    expect(visible.text.split('\n')[0]).toBe('Search of all events for "gamma": 1 match');
    expect(visible.text).not.toContain('Nothing has been forgotten');
  });
});

describe('recall size caps', () => {
  it('always gives the first event, even one over the total cap, and leaves out the rest', () => {
    const events = history();
    const capped = recallFromHistory(events, { start_index: 0, end_index: 3 }, { ...limits, maxTotalChars: 1 });
    expect(capped.eventIds).toEqual([events[0]!.id]);
    expect(capped.text).toContain('alpha apple');
    expect(capped.truncated).toBe(true);
    expect(capped.text).toContain('[truncated: 3 events left out (over the 1-character cap)');
  });

  it('says an event one character over its cap was cut, and one exactly at it was not', () => {
    const long = message(`start ${'x'.repeat(200)} end`);
    const events = [long];
    const length = eventSummaryText(long).length;
    const request = { start_index: 0 };
    const over = recallFromHistory(events, request, { ...limits, maxEventChars: length - 1 });
    expect(over.truncated).toBe(true);
    expect(over.text).toContain(`[truncated: events longer than ${length - 1} characters lost their middle]`);
    const at = recallFromHistory(events, request, { ...limits, maxEventChars: length });
    expect(at.truncated).toBe(false);
    expect(at.text).not.toContain('[truncated');
  });
});
