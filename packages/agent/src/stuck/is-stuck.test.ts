import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import {
  action,
  agentError,
  message,
  observation,
  repeatedErrors,
  repeatedPairs,
  stateUpdate,
} from './__fixtures__/stuck-events.js';
import { InvalidStuckThresholdsError } from './invalid-stuck-thresholds-error.js';
import { isStuck } from './is-stuck.js';
import { DEFAULT_STUCK_THRESHOLDS, resolveStuckThresholds } from './stuck-thresholds.js';

const start = (): AnyEvent[] => [message('user', 'please fix the build')];

describe('isStuck: repeated action and observation', () => {
  it('triggers at the 4th identical pair and not one event before', () => {
    const events = [...start(), ...repeatedPairs(3)];
    const fourth = action('ls');
    expect(isStuck(events)).toBeNull();
    expect(isStuck([...events, fourth])).toBeNull();
    expect(isStuck([...events, fourth, observation(fourth, 'a.txt')])).toBe('repeated_action_observation');
  });

  it('does not trigger when one observation differs', () => {
    const call = action('ls');
    expect(isStuck([...start(), ...repeatedPairs(3), call, observation(call, 'b.txt')])).toBeNull();
  });

  it('follows a configured threshold', () => {
    expect(isStuck([...start(), ...repeatedPairs(1)], { actionObservation: 2 })).toBeNull();
    expect(isStuck([...start(), ...repeatedPairs(2)], { actionObservation: 2 })).toBe('repeated_action_observation');
  });
});

describe('isStuck: repeated action error', () => {
  const differentErrors = (index: number) => `no such file (attempt ${index})`;

  it('is stuck when the streak exceeds the threshold, not when it equals it', () => {
    const three = [...start(), ...repeatedErrors(3, differentErrors)];
    expect(isStuck(three)).toBeNull();
    const fourthCall = action('cat missing.txt');
    expect(isStuck([...three, fourthCall])).toBeNull();
    expect(isStuck([...three, fourthCall, agentError(fourthCall, differentErrors(3))])).toBe('repeated_action_error');
  });

  it('reports identical errors as a repeated action/observation first (reference order)', () => {
    expect(isStuck([...start(), ...repeatedErrors(4)])).toBe('repeated_action_observation');
  });

  it('breaks the streak on a different action', () => {
    const other = action('cat other.txt');
    const events = [...start(), ...repeatedErrors(2, differentErrors), other, agentError(other, 'x')];
    expect(isStuck([...events, ...repeatedErrors(2, differentErrors)])).toBeNull();
  });
});

describe('isStuck: monologue', () => {
  it('triggers at the 3rd agent message in a row and not before', () => {
    const events = [...start(), message('agent', 'thinking'), message('agent', 'still thinking')];
    expect(isStuck(events)).toBeNull();
    expect(isStuck([...events, message('agent', 'more')])).toBe('monologue');
  });

  it('lets environment messages and summaries through without counting them', () => {
    const summary = createEvent('CondensationSummaryEvent', { summary: 'earlier work' });
    const events = [
      ...start(),
      message('agent', 'one'),
      message('environment', 'nudge'),
      summary,
      message('agent', 'two'),
      message('environment', 'nudge'),
    ];
    expect(isStuck(events)).toBeNull();
    expect(isStuck([...events, message('agent', 'three')])).toBe('monologue');
  });

  it('is interrupted by any other event', () => {
    const call = action('ls');
    const events = [
      ...start(),
      message('agent', 'one'),
      message('agent', 'two'),
      call,
      observation(call, 'x'),
      message('agent', 'three'),
    ];
    expect(isStuck(events)).toBeNull();
  });
});

describe('isStuck: alternating pattern', () => {
  function alternating(pairs: number): AnyEvent[] {
    return Array.from({ length: pairs }, (_, index) => {
      const call = action(index % 2 === 0 ? 'ls' : 'pwd');
      return [call, observation(call, index % 2 === 0 ? 'a.txt' : '/work')];
    }).flat();
  }

  it('triggers with 6 alternating actions and results and not one event before', () => {
    const events = [...start(), ...alternating(6)];
    expect(isStuck(events.slice(0, -1))).toBeNull();
    expect(isStuck(events)).toBe('alternating_pattern');
  });

  it('does not trigger when the alternation breaks', () => {
    const call = action('whoami');
    expect(isStuck([...start(), ...alternating(5), call, observation(call, 'root')])).toBeNull();
  });
});

describe('isStuck: context window error loop', () => {
  const request = () => createEvent('CondensationRequest', {});
  const condensation = () => createEvent('Condensation', { forgotten_event_ids: [], llm_response_id: 'r' });

  it('triggers at the 3rd condensation cycle without progress and not before', () => {
    const events = [...start(), ...repeatedPairs(1), request(), condensation(), request(), condensation()];
    expect(isStuck(events)).toBeNull();
    expect(isStuck([...events, request()])).toBe('context_window_error_loop');
  });

  it('counts condensations alone and ignores non-LLM events between cycles', () => {
    const events = [...start(), condensation(), stateUpdate(), condensation(), stateUpdate(), condensation()];
    expect(isStuck(events)).toBe('context_window_error_loop');
  });

  it('resets when the LLM makes progress between cycles', () => {
    const events = [...start(), request(), condensation(), request(), condensation(), ...repeatedPairs(1), request()];
    expect(isStuck(events)).toBeNull();
  });

  it('follows a configured threshold', () => {
    expect(isStuck([...start(), request()], { contextWindowErrorLoop: 2 })).toBeNull();
    expect(isStuck([...start(), request(), request()], { contextWindowErrorLoop: 2 })).toBe(
      'context_window_error_loop',
    );
  });
});

describe('isStuck: window', () => {
  it('only looks after the last user message', () => {
    const events = [...start(), ...repeatedPairs(4), message('user', 'try again')];
    expect(isStuck(events)).toBeNull();
    expect(isStuck([...events, ...repeatedPairs(3)])).toBeNull();
    expect(isStuck([...events, ...repeatedPairs(4)])).toBe('repeated_action_observation');
  });

  it('is not reset by an environment message', () => {
    const events = [...start(), ...repeatedPairs(2), message('environment', 'nudge'), ...repeatedPairs(2)];
    expect(isStuck(events)).toBe('repeated_action_observation');
  });

  it('only looks at the last 20 events', () => {
    const loop = [...start(), ...repeatedPairs(4)];
    const filler = (count: number) => Array.from({ length: count }, stateUpdate);
    expect(isStuck([...loop, ...filler(12)])).toBe('repeated_action_observation');
    expect(isStuck([...loop, ...filler(13)])).toBeNull();
  });

  it('is false on an empty or short history', () => {
    expect(isStuck([])).toBeNull();
    expect(isStuck(start())).toBeNull();
  });
});

describe('stuck thresholds', () => {
  it('defaults to the reference values', () => {
    expect(DEFAULT_STUCK_THRESHOLDS).toEqual({
      actionObservation: 4,
      actionError: 3,
      monologue: 3,
      alternatingPattern: 6,
      contextWindowErrorLoop: 3,
    });
  });

  it('rejects thresholds that are not integers ≥ 1, naming each one', () => {
    let caught: unknown;
    try {
      resolveStuckThresholds({ actionError: 0, monologue: 1.5 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidStuckThresholdsError);
    const error = caught as InvalidStuckThresholdsError;
    expect(error.code).toBe('invalid_stuck_thresholds');
    expect(error.message).toContain('actionError: expected an integer ≥ 1, got 0');
    expect(error.message).toContain('monologue: expected an integer ≥ 1, got 1.5');
    expect(() => isStuck([], { alternatingPattern: -1 })).toThrow(InvalidStuckThresholdsError);
  });
});
