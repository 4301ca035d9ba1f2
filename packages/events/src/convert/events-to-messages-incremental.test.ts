import { describe, expect, it } from 'vitest';
import {
  action,
  agentMessage,
  condensation,
  observation,
  system,
  userMessage,
} from '../../test/support/event-builders.js';
import { createEvent } from '../create/create-event.js';
import type { AnyEvent } from '../schemas/events.js';
import { View } from '../view/view.js';
import { eventsToMessages } from './events-to-messages.js';

/** The messages of a fresh copy of `events`: the conversion with no memo to reuse. */
const fresh = (events: readonly AnyEvent[]) => eventsToMessages([...events]);

describe('eventsToMessages on a growing array (incremental)', () => {
  it('gives what a fresh conversion gives after every append, batch and merge boundaries included', () => {
    const pause = createEvent('PauseEvent', { source: 'user' });
    const appended: AnyEvent[] = [
      system(),
      userMessage('a'),
      userMessage('b'), // merges into the previous message across a call boundary
      action('c1', 'r1', { thought: 'two calls' }),
      pause, // skipped, does not split the batch
      action('c2', 'r1'), // joins the batch across a call boundary
      observation('c1'),
      observation('c2'),
      agentMessage('x'),
      userMessage('c'),
      userMessage('d'),
      action('c3', 'r2'),
    ];
    const live: AnyEvent[] = [];
    for (const event of appended) {
      live.push(event);
      expect(eventsToMessages(live)).toEqual(fresh(live));
    }
    expect(eventsToMessages(live).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('reuses the unchanged messages and sees elements replaced or removed in place', () => {
    const live: AnyEvent[] = [system(), userMessage('a'), action('c1', 'r1'), observation('c1')];
    const first = eventsToMessages(live);
    live.push(agentMessage('x'));
    const second = eventsToMessages(live);
    expect(second[0]).toBe(first[0]);
    expect(second[2]).toBe(first[2]);

    live[1] = userMessage('changed');
    expect(eventsToMessages(live)).toEqual(fresh(live));
    live.splice(2, 2);
    expect(eventsToMessages(live)).toEqual(fresh(live));
    live.length = 0;
    expect(eventsToMessages(live)).toEqual([]);
  });

  it('returns frozen messages that the next call does not change', () => {
    const live: AnyEvent[] = [userMessage('a'), userMessage('b')];
    const first = eventsToMessages(live);
    expect(Object.isFrozen(first[0])).toBe(true);
    expect(Object.isFrozen(first[0]?.content)).toBe(true);
    const snapshot = JSON.stringify(first);
    live.push(userMessage('c'));
    expect(eventsToMessages(live)[0]?.content).toHaveLength(3);
    expect(JSON.stringify(first)).toBe(snapshot);
  });
});

describe('eventsToMessages keeps final messages', () => {
  it('keeps the object of a tool message whose event is unchanged, with the next step appended', () => {
    const live: AnyEvent[] = [system(), userMessage('a'), action('c1', 'r1'), observation('c1')];
    const before = eventsToMessages(live);
    live.push(action('c2', 'r2'), observation('c2'));
    const after = eventsToMessages(live);
    expect(after[3]).toBe(before[3]);
    expect(after).toEqual(fresh(live));
  });

  it('keeps the object of a tool message that is the first and only message', () => {
    const live: AnyEvent[] = [observation('c1')];
    const before = eventsToMessages(live);
    live.push(userMessage('next'));
    const after = eventsToMessages(live);
    expect(after[0]).toBe(before[0]);
    expect(after).toEqual(fresh(live));
  });

  it('gives what a fresh conversion gives under random appends, replacements and truncations', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 40; round++) {
      const live: AnyEvent[] = [system()];
      let call = 0;
      for (let change = 0; change < 40; change++) {
        const id = `c${call++}`;
        const make = [
          () => userMessage(`u${change}`),
          () => agentMessage(`a${change}`),
          () => action(id, `r${random(3)}`),
          () => observation(`c${random(call)}`),
          () => createEvent('PauseEvent', { source: 'user' }),
        ][random(5)]!;
        const kind = random(10);
        if (kind < 7 || live.length < 3) live.push(make());
        else if (kind < 9) live[1 + random(live.length - 1)] = make();
        else live.length = 1 + random(live.length - 1);
        expect(eventsToMessages(live)).toEqual(fresh(live));
      }
    }
  });

  it("on a View's live events (no prefix compared), gives a fresh conversion's messages through condensations and repairs", () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    let condensations = 0;
    for (let round = 0; round < 30; round++) {
      const view = View.fromEvents([system()]);
      const ids: string[] = [];
      let call = 0;
      for (let change = 0; change < 60; change++) {
        const id = `c${call++}`;
        const pick = random(12);
        let event: AnyEvent;
        if (pick < 3) event = userMessage(`u${round}-${change}`);
        else if (pick < 5) event = agentMessage(`a${round}-${change}`);
        else if (pick < 8) event = action(id, `r${random(3)}`);
        else if (pick < 11) event = observation(`c${random(call)}`, `out ${change}`, `O-${round}-${change}`);
        else {
          const summary = random(2) === 0 ? { summary: `s${change}`, offset: random(3) } : undefined;
          event = condensation(
            `C-${round}-${change}`,
            ids.filter(() => random(3) === 0),
            summary,
          );
          condensations++;
        }
        if (event.kind !== 'Condensation') ids.push(event.id);
        view.append(event);
        expect(eventsToMessages(view.events)).toEqual(fresh(view.events));
      }
    }
    expect(condensations).toBeGreaterThan(20);
  });
});
