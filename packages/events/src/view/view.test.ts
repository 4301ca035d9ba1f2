import { describe, expect, it } from 'vitest';
import {
  action,
  agentError,
  agentMessage,
  condensation,
  observation,
  thinking,
  userMessage,
} from '../../test/support/event-builders.js';
import { createEvent } from '../create/create-event.js';
import { NoManipulationIndexError } from '../errors/no-manipulation-index-error.js';
import type { AnyEvent } from '../schemas/events.js';
import { View } from './view.js';

const ids = (view: View) => view.events.map((event) => event.id);
const indicesOf = (events: AnyEvent[]) => {
  const view = new View();
  for (const event of events) view.append(event);
  return view.manipulationIndices();
};
let counter = 0;
const M = () => userMessage(`m${counter++}`);
const A = (call: string, resp: string, withThinking = false) => action(call, resp, withThinking ? { thinking } : {});
const O = (call: string) => observation(call);

describe('View manipulation indices (reference §6.2 worked examples)', () => {
  const cases: [string, () => AnyEvent[], number[]][] = [
    ['[]', () => [], [0]],
    ['[M]', () => [M()], [0, 1]],
    ['[A1,O1]', () => [A('1', 'r1'), O('1')], [0, 2]],
    ['[M,A1,O1,M]', () => [M(), A('1', 'r1'), O('1'), M()], [0, 1, 3, 4]],
    ['[A1a,A1b,A1c,O,O,O]', () => [A('a', 'r1'), A('b', 'r1'), A('c', 'r1'), O('a'), O('b'), O('c')], [0, 6]],
    [
      '[A1a,A1b,O,O,A2a,A2b,O,O]',
      () => [A('a', 'r1'), A('b', 'r1'), O('a'), O('b'), A('c', 'r2'), A('d', 'r2'), O('c'), O('d')],
      [0, 4, 8],
    ],
    [
      '[M,A1a,A1b,O1a,M,O1b,M,A2,O2]',
      () => [M(), A('a', 'r1'), A('b', 'r1'), O('a'), M(), O('b'), M(), A('c', 'r2'), O('c')],
      [0, 1, 6, 7, 9],
    ],
    ['[A1a,A1b,M,O,O]', () => [A('a', 'r1'), A('b', 'r1'), M(), O('a'), O('b')], [0, 5]],
    ['[M,A(think),O]', () => [M(), A('a', 'r1', true), O('a')], [0, 1, 3]],
    [
      '[M,A(think),O,A,O,A,O,M]',
      () => [M(), A('a', 'r1', true), O('a'), A('b', 'r2'), O('b'), A('c', 'r3'), O('c'), M()],
      [0, 1, 7, 8],
    ],
    ['[A(think),O,M,A(think),O]', () => [A('a', 'r1', true), O('a'), M(), A('b', 'r2', true), O('b')], [0, 2, 3, 5]],
  ];
  for (const [name, build, expected] of cases) {
    it(`${name} → {${expected.join(',')}}`, () => {
      expect(indicesOf(build())).toEqual(expected);
    });
  }

  it('findNextManipulationIndex gives the smallest index ≥ t, or throws', () => {
    const view = View.fromEvents([M(), A('a', 'r1'), A('b', 'r1'), O('a'), O('b'), M()]);
    expect(view.manipulationIndices()).toEqual([0, 1, 5, 6]);
    expect(view.findNextManipulationIndex(0)).toBe(0);
    expect(view.findNextManipulationIndex(2)).toBe(5);
    expect(view.findNextManipulationIndex(6)).toBe(6);
    expect(() => view.findNextManipulationIndex(7)).toThrow(NoManipulationIndexError);
  });
});

describe('View.append and condensations (reference §6.1)', () => {
  it('forgets ids, inserts the summary at the offset of the filtered view, ignores unknown ids', () => {
    const events = [userMessage('a'), userMessage('b'), userMessage('c'), userMessage('d')];
    const view = View.fromEvents([
      ...events,
      condensation('C1', ['M-b', 'M-c', 'missing'], { summary: 'S', offset: 1 }),
    ]);
    expect(ids(view)).toEqual(['M-a', 'C1-summary', 'M-d']);
    const summary = view.events[1];
    expect(summary?.kind === 'CondensationSummaryEvent' && summary.summary).toBe('S');
    expect(summary?.source).toBe('environment');
  });

  it('appends when the offset is past the end; needs both summary and offset', () => {
    const past = View.fromEvents([userMessage('a'), condensation('C1', [], { summary: 'S', offset: 9 })]);
    expect(ids(past)).toEqual(['M-a', 'C1-summary']);
    const onlySummary = createEvent('Condensation', {
      id: 'C2',
      source: 'environment',
      summary: 'no offset',
      llm_response_id: 'r',
    });
    expect(ids(View.fromEvents([userMessage('a'), onlySummary]))).toEqual(['M-a']);
  });

  it('puts the later of two summaries at the same offset first, and can forget a summary by id', () => {
    const view = new View();
    view.append(userMessage('a'));
    view.append(condensation('C1', [], { summary: 'one', offset: 0 }));
    view.append(condensation('C2', [], { summary: 'two', offset: 0 }));
    expect(ids(view)).toEqual(['C2-summary', 'C1-summary', 'M-a']);
    view.append(condensation('C3', ['C1-summary']));
    expect(ids(view)).toEqual(['C2-summary', 'M-a']);
  });

  it('tracks condensation requests and ignores non-LLM events', () => {
    const view = new View();
    view.append(createEvent('CondensationRequest', { source: 'environment' }));
    view.append(createEvent('PauseEvent', { source: 'user' }));
    expect(view.unhandledCondensationRequest).toBe(true);
    expect(view.events).toHaveLength(0);
    view.append(condensation('C1', []));
    expect(view.unhandledCondensationRequest).toBe(false);
    view.append(condensation('C2', []));
    expect(view.unhandledCondensationRequest).toBe(false);
  });
});

describe('View property enforcement (reference §6.3)', () => {
  it('cascades matching → batch → matching to a fixpoint', () => {
    const events = [
      userMessage('m'),
      action('1', 'resp1'),
      action('2', 'resp1'),
      observation('1'),
      observation('2'),
      condensation('C', ['O-1']),
    ];
    expect(ids(View.fromEvents(events))).toEqual(['M-m']);
  });

  it('drops a later action whose response id names a batch a condensation forgot, as the reference does', () => {
    // A provider that repeats response ids (the reference's own loop records whatever id it was given): the
    // log's batch `r` has two actions, the view only the later one, so BatchAtomicity drops it (and
    // ToolCallMatching its result). The reference: [M-a, M-b, R-done], indices [0, 1, 2, 3].
    const events = [
      userMessage('a'),
      action('1', 'r'),
      observation('1'),
      condensation('C', ['A-1', 'O-1']),
      userMessage('b'),
      action('2', 'r'),
      observation('2'),
      agentMessage('done'),
    ];
    const view = View.fromEvents(events);
    expect(ids(view)).toEqual(['M-a', 'M-b', 'R-done']);
    expect(view.manipulationIndices()).toEqual([0, 1, 2, 3]);
    // Its fold holds the broken batch: it cannot stand for the log alone.
    expect(view.restorable).toBe(false);
    // Without the condensation both actions are in the view and the batch is whole (the reference keeps all).
    const whole = View.fromEvents(events.filter((event) => event.kind !== 'Condensation'));
    expect(ids(whole)).toEqual(['M-a', 'A-1', 'O-1', 'M-b', 'A-2', 'O-2', 'R-done']);
    expect(whole.manipulationIndices()).toEqual([0, 1, 3, 4, 6, 7]);
  });

  it('keeps the first result per tool call (crash recovery)', () => {
    const events = [action('1', 'r'), agentError('1'), observation('1')];
    expect(ids(View.fromEvents(events))).toEqual(['A-1', 'E-1']);
  });

  it('drops actions without results and orphan results', () => {
    const events = [userMessage('m'), observation('ghost'), action('1', 'r')];
    expect(ids(View.fromEvents(events))).toEqual(['M-m']);
  });

  it('drops a tool loop that is only partly in the view', () => {
    const events = [
      userMessage('m'),
      action('1', 'r1', { thinking }),
      observation('1'),
      action('2', 'r2'),
      observation('2'),
      userMessage('n'),
      condensation('C', ['A-1', 'O-1']),
    ];
    expect(ids(View.fromEvents(events))).toEqual(['M-m', 'M-n']);
  });

  it('repairs the live view as it goes, and hides a call until its result comes', () => {
    const view = new View();
    for (const event of [userMessage('m'), observation('ghost'), action('1', 'r')]) view.append(event);
    expect(ids(view)).toEqual(['M-m']);
    expect(view.foldedEvents.map((event) => event.id)).toEqual(['M-m', 'O-ghost', 'A-1']);
    expect(view.restorable).toBe(false);
    view.append(observation('1'));
    expect(ids(view)).toEqual(['M-m', 'A-1', 'O-1']);
  });

  it('gives the fold itself (no copy) while the view needs no repair', () => {
    const view = View.fromEvents([userMessage('m'), action('1', 'r'), observation('1')]);
    expect(view.events).toBe(view.foldedEvents);
    expect(view.restorable).toBe(true);
  });
});
