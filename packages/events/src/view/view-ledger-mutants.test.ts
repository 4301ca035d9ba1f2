// What the ledger's bookkeeping promises a View's user: a restored fold that starts inside a tool call stays
// restorable, and a condensation that forgets an unanswered call leaves a healthy view (its events the live fold).
import { describe, expect, it } from 'vitest';
import { action, condensation, observation, userMessage } from '../../test/support/event-builders.js';
import type { AnyEvent } from '../schemas/events.js';
import { View } from './view.js';

const ids = (events: readonly AnyEvent[]) => events.map((event) => event.id);

describe('ViewLedger through a View', () => {
  it('keeps a restored fold that starts with a plain action restorable across a later condensation', () => {
    // A checkpoint's fold may begin with an action and its result (the condensation forgot what came before):
    // they belong to no tool loop, so a later condensation that keeps them whole breaks nothing.
    const view = View.restore([action('1', 'r1'), observation('1'), userMessage('a')], false);
    view.append(condensation('C', ['M-a']));
    expect(ids(view.events)).toEqual(['A-1', 'O-1']);
    expect(view.restorable).toBe(true);
  });

  it('is healthy again once a condensation forgets the only unanswered call', () => {
    const view = View.fromEvents([userMessage('a'), action('1', 'r1')]);
    // The unanswered call is hidden by the repair, so the events are a copy, not the fold.
    expect(ids(view.events)).toEqual(['M-a']);
    view.append(condensation('C', ['A-1']));
    const events = view.events;
    expect(events).toBe(view.foldedEvents);
    // Healthy views hand out the live fold: an array read before an append shows it (no repair per read).
    view.append(userMessage('b'));
    expect(ids(events)).toEqual(['M-a', 'M-b']);
    expect(view.restorable).toBe(true);
  });
});
