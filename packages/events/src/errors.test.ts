import { describe, expect, it } from 'vitest';
import { EventsError } from './errors.js';

describe('EventsError', () => {
  it('is recognised by isInstance, also across copies that share the global symbol', () => {
    const error = new EventsError('example', 'something was wrong');
    expect(EventsError.isInstance(error)).toBe(true);
    expect(EventsError.isInstance(new Error('plain'))).toBe(false);
    const foreign = Object.assign(new Error('other copy'), { [Symbol.for('@x/events.error')]: true });
    expect(EventsError.isInstance(foreign)).toBe(true);
    expect(error.name).toBe('EventsError');
    expect(error.code).toBe('example');
  });

  it('tells subclasses apart: a subclass matches only its own errors and the base matches all', () => {
    class FirstProblem extends EventsError {}
    class SecondProblem extends EventsError {}
    const first = new FirstProblem('first', 'one');
    expect(FirstProblem.isInstance(first)).toBe(true);
    expect(SecondProblem.isInstance(first)).toBe(false);
    expect(EventsError.isInstance(first)).toBe(true);
    expect(FirstProblem.isInstance(new Error('plain'))).toBe(false);
  });
});
