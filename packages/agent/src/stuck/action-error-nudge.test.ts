import { describe, expect, it } from 'vitest';
import { message, repeatedErrors } from './__fixtures__/stuck-events.js';
import { actionErrorNudge } from './action-error-nudge.js';
import { StuckDetector } from './stuck-detector.js';

const start = () => [message('user', 'read the file')];

describe('actionErrorNudge', () => {
  it('nudges when the streak reaches the threshold, not one before, with the reference text', () => {
    expect(actionErrorNudge([...start(), ...repeatedErrors(2)])).toBeNull();
    const events = [...start(), ...repeatedErrors(3, (index) => `No such file (${index})`)];
    const nudge = actionErrorNudge(events);
    expect(nudge).toEqual({
      errorEventId: events.at(-1)!.id,
      text:
        "You've called `terminal` with the same arguments 3 times in a row and gotten the same error each time: " +
        'No such file (2). Repeating the exact same call again will not work — review the error message and ' +
        'either correct the arguments or try a different approach.',
    });
  });

  it('does not nudge past the threshold (that is stuck) or for an error already nudged', () => {
    expect(actionErrorNudge([...start(), ...repeatedErrors(4)])).toBeNull();
    const events = [...start(), ...repeatedErrors(3)];
    expect(actionErrorNudge(events, {}, new Set([events.at(-1)!.id]))).toBeNull();
  });

  it('follows a configured threshold', () => {
    const events = [...start(), ...repeatedErrors(2)];
    expect(actionErrorNudge(events, { actionError: 2 })?.text).toContain('2 times in a row');
  });
});

describe('StuckDetector', () => {
  it('nudges a frozen streak once, then reports stuck on the next identical failure', () => {
    const detector = new StuckDetector();
    const differing = (index: number) => `error ${index}`;
    const three = [...start(), ...repeatedErrors(3, differing)];
    expect(detector.actionErrorNudge(three)).not.toBeNull();
    expect(detector.actionErrorNudge(three)).toBeNull();
    expect(detector.isStuck(three)).toBeNull();
    const four = [...three, ...repeatedErrors(1, () => 'error 3')];
    expect(detector.actionErrorNudge(four)).toBeNull();
    expect(detector.isStuck(four)).toBe('repeated_action_error');
  });
});
