import { describe, expect, it } from 'vitest';
import { ServerError } from './errors.js';

describe('ServerError', () => {
  it('is recognised by isInstance, also across copies that share the global symbol', () => {
    const error = new ServerError('example', 'something was wrong');
    expect(ServerError.isInstance(error)).toBe(true);
    expect(ServerError.isInstance(new Error('plain'))).toBe(false);
    const foreign = Object.assign(new Error('other copy'), { [Symbol.for('@x/server.error')]: true });
    expect(ServerError.isInstance(foreign)).toBe(true);
    expect(error.name).toBe('ServerError');
    expect(error.code).toBe('example');
  });

  it('tells subclasses apart: a subclass matches only its own errors and the base matches all', () => {
    class FirstProblem extends ServerError {}
    class SecondProblem extends ServerError {}
    const first = new FirstProblem('first', 'one');
    expect(FirstProblem.isInstance(first)).toBe(true);
    expect(SecondProblem.isInstance(first)).toBe(false);
    expect(ServerError.isInstance(first)).toBe(true);
    expect(FirstProblem.isInstance(new Error('plain'))).toBe(false);
  });
});
