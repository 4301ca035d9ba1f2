// View.restore rebuilds a view from a restorable view's fold (what a view checkpoint saves): the restored view must
// go on exactly like the live one, its pending condensation request included.
import { describe, expect, it } from 'vitest';
import { action, condensation, observation, system, userMessage } from '../../test/support/event-builders.js';
import { createEvent } from '../create/create-event.js';
import type { AnyEvent } from '../schemas/events.js';
import { View } from './view.js';

const ids = (events: readonly AnyEvent[]) => events.map((event) => event.id);

describe('View.restore', () => {
  it('gives a view that goes on like the live one, a pending call and a condensation request included', () => {
    const live = View.fromEvents([
      system(),
      userMessage('a'),
      action('1', 'r1'),
      observation('1'),
      condensation('C', ['M-a']),
      action('2', 'r2'),
      createEvent('CondensationRequest', {}),
    ]);
    expect(live.restorable).toBe(true);
    expect(live.unhandledCondensationRequest).toBe(true);
    // The pending call is hidden by the repair but kept in the fold.
    expect(ids(live.events)).toEqual(['S', 'A-1', 'O-1']);

    const restored = View.restore([...live.foldedEvents], live.unhandledCondensationRequest);
    expect(ids(restored.foldedEvents)).toEqual(ids(live.foldedEvents));
    expect(ids(restored.events)).toEqual(ids(live.events));
    expect(restored.unhandledCondensationRequest).toBe(true);
    expect(restored.restorable).toBe(true);

    for (const event of [observation('2'), userMessage('b'), condensation('D', ['A-1', 'O-1'])]) {
      live.append(event);
      restored.append(event);
      expect(ids(restored.events)).toEqual(ids(live.events));
      expect(restored.unhandledCondensationRequest).toBe(live.unhandledCondensationRequest);
    }
    expect(ids(restored.events)).toEqual(['S', 'A-2', 'O-2', 'M-b']);
    expect(restored.unhandledCondensationRequest).toBe(false);
  });

  it('takes the flag as given, and copies the events it is given', () => {
    const events = View.fromEvents([system(), userMessage('a')]).foldedEvents.slice();
    const restored = View.restore(events, false);
    expect(restored.unhandledCondensationRequest).toBe(false);
    events.push(userMessage('b'));
    expect(ids(restored.events)).toEqual(['S', 'M-a']);
    expect(View.restore([], true).unhandledCondensationRequest).toBe(true);
  });
});
