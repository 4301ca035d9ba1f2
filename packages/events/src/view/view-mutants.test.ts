import { describe, expect, it } from 'vitest';
import { action, condensation, observation, thinking, userMessage } from '../../test/support/event-builders.js';
import { NoManipulationIndexError } from '../errors/no-manipulation-index-error.js';
import { View } from './view.js';

describe('View.findNextManipulationIndex', () => {
  it('names the threshold and the view’s length when no index lies that far', () => {
    const view = View.fromEvents([userMessage('a'), userMessage('b'), userMessage('c')]);
    expect(() => view.findNextManipulationIndex(4)).toThrow(NoManipulationIndexError);
    expect(() => view.findNextManipulationIndex(4)).toThrow(
      'No manipulation index at or after 4 in a view of 3 events',
    );
  });
});

describe('View.restorable after a condensation', () => {
  it('stays restorable when the condensation leaves a whole tool loop in the view', () => {
    const view = View.fromEvents([
      userMessage('a'),
      action('1', 'r1', { thinking }),
      observation('1'),
      userMessage('b'),
      condensation('C', ['M-a']),
    ]);
    expect(view.events.map((event) => event.id)).toEqual(['A-1', 'O-1', 'M-b']);
    expect(view.restorable).toBe(true);
  });
});
