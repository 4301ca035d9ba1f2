import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { InvalidRecallError } from './invalid-recall-error.js';
import { recallFromHistory } from './recall-history.js';
import { DEFAULT_RECALL_LIMITS } from './recall-limits.js';

const message = (text: string, source: 'user' | 'agent' = 'user') =>
  createEvent('MessageEvent', {
    source,
    llm_message: { role: source === 'user' ? 'user' : 'assistant', content: [{ type: 'text', text }] },
  });

/** 0 system prompt, 1 user, 2-7 chat (2-5 forgotten), 8 state update, 9 condensation, 10 last message. */
function history(extraForgotten: AnyEvent[] = []): AnyEvent[] {
  const events: AnyEvent[] = [
    createEvent('SystemPromptEvent', { system_prompt: { type: 'text', text: 'You are helpful.' }, tools: [] }),
    message('Plan the trip'),
    message('The hotel is the Blue Heron, room 12', 'agent'),
    ...extraForgotten,
    message('Flight LX 318 leaves at 07:40'),
    message('The blue car is parked on level 3', 'agent'),
    message('Budget is 900 EUR'),
    message('Noted', 'agent'),
    message('Anything else?'),
    createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'running' }),
  ];
  events.push(
    createEvent('Condensation', {
      forgotten_event_ids: events.slice(2, 6 + extraForgotten.length).map((event) => event.id),
      summary: 'A trip is planned.',
      summary_offset: 2,
      llm_response_id: 'r1',
    }),
    message('What was the room number?'),
  );
  return events;
}

const limits = DEFAULT_RECALL_LIMITS;

describe('recallFromHistory', () => {
  it('finds forgotten events by text (every word, any case), oldest first, marked forgotten', () => {
    const events = history();
    const result = recallFromHistory(events, { query: 'BLUE' }, limits);
    expect(result.eventIds).toEqual([events[2]!.id, events[4]!.id]);
    expect(result.text).toContain('2 matches');
    expect(result.text).toContain(`<EVENT index=2 id=${events[2]!.id} forgotten>`);
    expect(result.text).toContain('The hotel is the Blue Heron, room 12');
    expect(result.truncated).toBe(false);

    expect(recallFromHistory(events, { query: 'blue level' }, limits).eventIds).toEqual([events[4]!.id]);
  });

  it('searches only forgotten events unless include_visible is set', () => {
    const events = history();
    expect(recallFromHistory(events, { query: 'anything else' }, limits).eventIds).toEqual([]);
    const visible = recallFromHistory(events, { query: 'anything else', include_visible: true }, limits);
    expect(visible.eventIds).toEqual([events[7]!.id]);
    expect(visible.text).toContain('in context');
  });

  it('says when nothing was forgotten yet', () => {
    const events = history().slice(0, 8);
    const result = recallFromHistory(events, { query: 'blue' }, limits);
    expect(result.eventIds).toEqual([]);
    expect(result.text).toContain('Nothing has been forgotten yet');
  });

  it('re-reads events by id, in log order, any kind', () => {
    const events = history();
    const result = recallFromHistory(events, { event_ids: [events[5]!.id, events[3]!.id, events[9]!.id] }, limits);
    expect(result.eventIds).toEqual([events[3]!.id, events[5]!.id, events[9]!.id]);
    expect(result.text).toContain('Flight LX 318');
    expect(result.text).toContain('Condensation\n{');
  });

  it('re-reads an inclusive index range, skipping what the model never reads', () => {
    const events = history();
    const result = recallFromHistory(events, { start_index: 3, end_index: 9 }, limits);
    expect(result.eventIds).toEqual(events.slice(3, 8).map((event) => event.id));
    expect(result.text).toContain('Events 3-9');

    const open = recallFromHistory(events, { start_index: 6, max_results: 2 }, limits);
    expect(open.eventIds).toEqual([events[6]!.id, events[7]!.id]);

    const past = recallFromHistory(events, { start_index: 9, end_index: 40 }, limits);
    expect(past.eventIds).toEqual([events[10]!.id]);
    expect(past.text).toContain('end_index 40 is past the end of the log; stopped at 10');
  });

  it('caps the number of events and says what was left out', () => {
    const events = history();
    const result = recallFromHistory(events, { query: 'e', max_results: 2 }, limits);
    expect(result.eventIds).toEqual([events[2]!.id, events[3]!.id]);
    expect(result.truncated).toBe(true);
    expect(result.text).toContain(
      `[truncated: 2 more events not shown (max_results 2); next: index 4 id ${events[4]!.id}`,
    );

    // The tool's cap wins over a larger max_results.
    const capped = recallFromHistory(events, { query: 'e', max_results: 50 }, { ...limits, maxResults: 1 });
    expect(capped.eventIds).toHaveLength(1);
  });

  it('cuts long events in the middle and leaves out events past the total cap, naming them', () => {
    const long = message(`start ${'x'.repeat(5000)} end`);
    const events = history([long]);

    const cut = recallFromHistory(events, { event_ids: [long.id] }, { ...limits, maxEventChars: 300 });
    expect(cut.text).toContain('start x');
    expect(cut.text).toContain('x end');
    expect(cut.text).toMatch(/\[\.\.\. \d+ characters omitted \.\.\.\]/);
    expect(cut.text).toContain('[truncated: events longer than 300 characters lost their middle]');
    expect(cut.truncated).toBe(true);
    expect(cut.text.length).toBeLessThan(700);

    const total = recallFromHistory(events, { query: 'e' }, { ...limits, maxEventChars: 6000, maxTotalChars: 1000 });
    // The long event does not fit and is named; the smaller ones after it still come.
    expect(total.eventIds).toEqual([2, 4, 5, 6].map((index) => events[index]!.id));
    expect(total.text.length).toBeLessThan(1400);
    expect(total.text).toContain(`[truncated: 1 event left out (over the 1000-character cap): index 3 id ${long.id}`);
    expect(total.text).toContain('recall them by id');
  });

  it('rejects ambiguous or impossible requests with an InvalidRecallError that names the problem', () => {
    const events = history();
    const bad = (args: Parameters<typeof recallFromHistory>[1]) => () => recallFromHistory(events, args, limits);
    expect(bad({})).toThrow(InvalidRecallError);
    expect(bad({})).toThrow(
      'exactly one of event_ids, start_index (optionally with end_index) or query; none was given',
    );
    expect(bad({ query: 'a', event_ids: ['x'] })).toThrow('got event_ids and query');
    expect(bad({ query: '   ' })).toThrow('recall query is blank');
    expect(bad({ end_index: 3 })).toThrow('recall end_index 3 needs a start_index');
    expect(bad({ start_index: 5, end_index: 2 })).toThrow('end_index 2 is before start_index 5');
    expect(bad({ start_index: 11 })).toThrow(
      'start_index 11 is past the end of the log: it has 11 events (indices 0-10)',
    );
    expect(bad({ event_ids: ['nope', events[2]!.id] })).toThrow("no event with id 'nope' in this conversation");
  });
});
