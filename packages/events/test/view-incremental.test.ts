import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEvent, parseEventJson } from '../src/index.js';
import type { AnyEvent } from '../src/schemas/events.js';
import { View } from '../src/view/view.js';
import {
  action,
  agentError,
  agentMessage,
  condensation,
  observation,
  thinking,
  userMessage,
} from './support/event-builders.js';
import { referenceFromEvents } from './support/reference-view.js';

/**
 * The live view (appended event by event, as a running conversation keeps it) must equal the view rebuilt
 * from the log (`View.fromEvents`, as a resume without a view checkpoint builds it) and the reference's
 * `View.from_events` (a line-by-line port), after every event, whatever condensations the log holds.
 */

const command = fc.oneof(
  fc.record({ t: fc.constant('message' as const), agent: fc.boolean() }),
  fc.record({
    t: fc.constant('batch' as const),
    size: fc.integer({ min: 1, max: 3 }),
    thinking: fc.boolean(),
    invalid: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    messageBeforeResults: fc.boolean(),
    answerLater: fc.boolean(),
    stateUpdate: fc.boolean(),
  }),
  fc.record({ t: fc.constant('answerLate' as const) }),
  fc.record({ t: fc.constant('duplicateResult' as const) }),
  fc.record({ t: fc.constant('request' as const) }),
  fc.record({
    t: fc.constant('condense' as const),
    // 'indices': a condenser's cut (start and end at manipulation indices); 'arbitrary': any slice, as a
    // foreign writer or a hard context reset might forget, through batches and tool loops alike.
    mode: fc.constantFrom('indices', 'arbitrary', 'reset'),
    start: fc.nat({ max: 40 }),
    length: fc.nat({ max: 40 }),
    summary: fc.boolean(),
    offset: fc.option(fc.nat({ max: 40 }), { nil: undefined }),
  }),
);

type Command = typeof command extends fc.Arbitrary<infer T> ? T : never;

/** Plays the commands as a conversation would log them, condensing against the live view. */
function play(commands: Command[], check: (log: AnyEvent[], live: View) => void): void {
  let n = 0;
  const log: AnyEvent[] = [];
  const live = new View();
  const emit = (event: AnyEvent) => {
    log.push(event);
    live.append(event);
    check(log, live);
  };
  const unanswered: string[] = [];
  const answered: string[] = [];
  emit(userMessage('task', `M-${n++}`));
  for (const c of commands) {
    if (c.t === 'message') emit(c.agent ? agentMessage('reply', `R-${n++}`) : userMessage('more', `M-${n++}`));
    else if (c.t === 'batch') {
      const response = `r${n++}`;
      const valid: string[] = [];
      for (let i = 0; i < c.size; i++) {
        const call = `c${n++}`;
        // Only the first action of a response carries its thinking; an invalid call is answered at once.
        emit(action(call, response, c.thinking && i === 0 ? { thinking } : {}));
        if (c.invalid[i]) emit(agentError(call));
        else valid.push(call);
      }
      if (c.messageBeforeResults) emit(userMessage('meanwhile', `M-${n++}`));
      if (c.answerLater) unanswered.push(...valid);
      else for (const call of valid) emit(observation(call));
      if (!c.answerLater) answered.push(...valid);
      if (c.stateUpdate) emit(createEvent('PauseEvent', { id: `P-${n++}`, source: 'user' }));
    } else if (c.t === 'answerLate') {
      for (const call of unanswered.splice(0)) {
        emit(observation(call));
        answered.push(call);
      }
    } else if (c.t === 'duplicateResult') {
      const call = answered.at(-1);
      if (call !== undefined) emit(observation(call, 'late', `O-late-${n++}`));
    } else if (c.t === 'request') emit(createEvent('CondensationRequest', { id: `Q-${n++}`, source: 'environment' }));
    else {
      const events = live.events;
      let start = Math.min(c.start, events.length);
      let end = Math.min(start + c.length, events.length);
      if (c.mode === 'indices') {
        const indices = live.manipulationIndices();
        start = indices.find((index) => index >= start) ?? events.length;
        end = indices.find((index) => index >= end) ?? events.length;
      } else if (c.mode === 'reset') {
        start = 0;
        end = events.length;
      }
      const forgotten = events.slice(start, end).map((event) => event.id);
      const offset = c.mode === 'reset' ? 0 : c.mode === 'indices' ? start : c.offset;
      const summary = c.summary && offset !== undefined ? { summary: 'so far', offset } : undefined;
      emit(condensation(`C${n++}`, forgotten, summary));
    }
  }
}

const ids = (events: readonly { id: string }[]) => events.map((event) => event.id);

describe('live view = rebuilt view = reference from_events', () => {
  it('after every event of generated conversations with condensations anywhere', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 30 }), (commands) => {
        play(commands, (log, live) => {
          const rebuilt = View.fromEvents(log);
          const reference = referenceFromEvents(log);
          expect(ids(live.events)).toEqual(ids(reference.events));
          expect(ids(rebuilt.events)).toEqual(ids(reference.events));
          expect(live.events).toEqual(reference.events);
          expect(live.unhandledCondensationRequest).toBe(reference.unhandledCondensationRequest);
          expect(live.manipulationIndices()).toEqual(rebuilt.manipulationIndices());
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a condenser cut after an invalid call keeps the live view equal to the rebuilt one', () => {
    // [invalid A1, valid A2] of one response is logged A1, E1, A2, O2: the index between E1 and A2 is a
    // manipulation index (nothing pending, not adjacent actions), so a condenser may cut there; the
    // reference's rebuild then drops A2 (its batch is broken) and O2 (orphaned), and so must the live view.
    const events: AnyEvent[] = [
      userMessage('task'),
      action('1', 'r1', { executable: false }),
      agentError('1'),
      action('2', 'r1'),
      observation('2'),
      userMessage('next'),
    ];
    const live = View.fromEvents(events);
    expect(live.manipulationIndices()).toContain(3);
    const cut = condensation('C', ['A-1', 'E-1'], { summary: 'S', offset: 1 });
    live.append(cut);
    expect(ids(live.events)).toEqual(['M-task', 'C-summary', 'M-next']);
    expect(ids(View.fromEvents([...events, cut]).events)).toEqual(ids(live.events));
  });
});

const fixtures = '/work/shared/reference/openhands-fixtures';
const local = join(import.meta.dirname, '__fixtures__', 'openhands');

describe('reference-written conversations with condensations', () => {
  for (const root of [local, fixtures]) {
    let names: string[] = [];
    try {
      names = readdirSync(root).filter((entry) => !entry.includes('.'));
    } catch {
      // The shared copy is optional: the vendored one is always there.
    }
    for (const name of names) {
      const dir = join(root, name, 'events');
      const events = readdirSync(dir)
        .filter((file) => file.endsWith('.json'))
        .sort()
        .map((file) => parseEventJson(readFileSync(join(dir, file), 'utf8')));
      if (!events.some((event) => event.kind === 'Condensation')) continue;
      it(`${root === local ? 'vendored' : 'shared'} ${name}: live = rebuilt = the reference's view`, () => {
        const expected = JSON.parse(readFileSync(join(root, name, 'expected.json'), 'utf8'));
        const live = new View();
        for (const event of events) live.append(event);
        expect(ids(live.events)).toEqual(expected.view_event_ids);
        expect(ids(View.fromEvents(events).events)).toEqual(expected.view_event_ids);
        expect(ids(referenceFromEvents(events).events)).toEqual(expected.view_event_ids);
        expect(live.unhandledCondensationRequest).toBe(expected.unhandled_condensation_request);
      });
    }
  }
});
