// Edges of the reference's rules the main suite leaves open: thresholds other than the defaults, and a loop
// whose latest step differs in only one of its two halves.

import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { action, message, observation, repeatedErrors, repeatedPairs } from './__fixtures__/stuck-events.js';
import { isStuck } from './is-stuck.js';

const start = (): AnyEvent[] => [message('user', 'please fix the build')];
const differentErrors = (index: number) => `no such file (attempt ${index})`;

describe('isStuck: repeated action and observation', () => {
  it('does not trigger when only the latest action differs, though its output is the same', () => {
    const other = action('ls -a');
    expect(isStuck([...start(), ...repeatedPairs(3), other, observation(other, 'a.txt')])).toBeNull();
  });

  it('with a threshold of 1, one action and its observation are already a loop (as in the reference)', () => {
    expect(isStuck([...start(), ...repeatedPairs(1)], { actionObservation: 1 })).toBe('repeated_action_observation');
  });
});

describe('isStuck: repeated action error above the action/observation threshold', () => {
  it('sees a streak longer than actionObservation: stuck one failure past actionError', () => {
    const thresholds = { actionError: 4 };
    expect(isStuck([...start(), ...repeatedErrors(4, differentErrors)], thresholds)).toBeNull();
    expect(isStuck([...start(), ...repeatedErrors(5, differentErrors)], thresholds)).toBe('repeated_action_error');
  });

  it('sees a streak when actionObservation is the smaller threshold', () => {
    const thresholds = { actionObservation: 2, actionError: 2 };
    const events = [...start(), ...repeatedErrors(3, differentErrors)];
    expect(isStuck(events, thresholds)).toBe('repeated_action_error');
  });
});

describe('isStuck: context window error loop', () => {
  const request = () => createEvent('CondensationRequest', {});
  const condensation = () => createEvent('Condensation', { forgotten_event_ids: [], llm_response_id: 'r' });

  it('counts an agent message as progress, and passes over an environment message', () => {
    const cycles = (between: AnyEvent) => [...start(), request(), condensation(), request(), between, condensation()];
    expect(isStuck([...cycles(message('agent', 'done thinking')), request()])).toBeNull();
    expect(isStuck([...cycles(message('environment', 'nudge')), request()])).toBe('context_window_error_loop');
  });
});
