// The collector both the loop checks read: at most `limit` actions and `limit` results, most recent first, whatever
// the balance between them; and the alternating check's results include tool errors.
import type { AnyEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { action, agentError, message, observation } from './__fixtures__/stuck-events.js';
import { recentActionsAndObservations, recentActionsAndResults } from './internal/recent-tool-events.js';
import { isStuck } from './is-stuck.js';

const start = (): AnyEvent[] => [message('user', 'please fix the build')];

function alternating(pairs: number, answerB: (call: ReturnType<typeof action>) => AnyEvent): AnyEvent[] {
  return Array.from({ length: pairs }, (_, index) => {
    if (index % 2 === 0) {
      const call = action('ls');
      return [call, observation(call, 'a.txt')];
    }
    const call = action('cat missing.txt');
    return [call, answerB(call)];
  }).flat();
}

describe('isStuck: alternating pattern', () => {
  it('counts tool errors as results, as the reference does', () => {
    const events = [...start(), ...alternating(6, (call) => agentError(call, 'No such file'))];
    expect(isStuck(events.slice(0, -1))).toBeNull();
    expect(isStuck(events)).toBe('alternating_pattern');
  });

  it('still sees the pattern while the latest call of it waits for its result', () => {
    const events = [...start(), ...alternating(6, (call) => observation(call, 'cat: missing.txt')), action('ls')];
    expect(isStuck(events)).toBe('alternating_pattern');
  });
});

describe('recentActionsAndObservations', () => {
  it('takes at most `limit` of each, most recent first, when one kind outnumbers the other', () => {
    const calls = [action('a'), action('b'), action('c')];
    const errors = calls.map((call, index) => agentError(call, `failed ${index}`));
    const onlyResults = recentActionsAndObservations(errors, 2);
    expect(onlyResults.actions).toEqual([]);
    expect(onlyResults.results.map((event) => event.id)).toEqual([errors[2]!.id, errors[1]!.id]);
    const onlyActions = recentActionsAndResults(calls, 2);
    expect(onlyActions.actions.map((event) => event.id)).toEqual([calls[2]!.id, calls[1]!.id]);
    expect(onlyActions.results).toEqual([]);
  });
});
