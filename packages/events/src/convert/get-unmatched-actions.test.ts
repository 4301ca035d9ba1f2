import { describe, expect, it } from 'vitest';
import { action, agentError, observation, userMessage } from '../../test/support/event-builders.js';
import { createEvent } from '../create/create-event.js';
import { getUnmatchedActions } from './get-unmatched-actions.js';

describe('getUnmatchedActions', () => {
  it('returns executable actions with no later result, in log order', () => {
    const reject = createEvent('UserRejectObservation', {
      source: 'environment',
      tool_name: 'terminal',
      tool_call_id: 'c3',
      action_id: 'A-c3',
    });
    const events = [
      userMessage('go'),
      action('c1', 'r1'),
      action('c2', 'r1'),
      action('c3', 'r1'),
      action('c4', 'r1', { executable: false }),
      action('c5', 'r1'),
      observation('c1'),
      reject,
      agentError('c5'),
      action('c6', 'r2'),
    ];
    expect(getUnmatchedActions(events).map((e) => e.id)).toEqual(['A-c2', 'A-c6']);
  });

  it('does not count a result that comes before its action', () => {
    expect(getUnmatchedActions([observation('c1'), action('c1', 'r1')]).map((e) => e.id)).toEqual(['A-c1']);
  });
});
