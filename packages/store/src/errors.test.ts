import { describe, expect, it } from 'vitest';
import { StoreError } from './errors.js';

describe('StoreError', () => {
  it('is recognised by isInstance, also across copies that share the global symbol', () => {
    const error = new StoreError('example', 'something was wrong');
    expect(StoreError.isInstance(error)).toBe(true);
    expect(StoreError.isInstance(new Error('plain'))).toBe(false);
    const foreign = Object.assign(new Error('other copy'), { [Symbol.for('@x/store.error')]: true });
    expect(StoreError.isInstance(foreign)).toBe(true);
    expect(error.name).toBe('StoreError');
    expect(error.code).toBe('example');
  });

  it('tells subclasses apart: a subclass matches only its own errors and the base matches all', () => {
    class FirstProblem extends StoreError {}
    class SecondProblem extends StoreError {}
    const first = new FirstProblem('first', 'one');
    expect(FirstProblem.isInstance(first)).toBe(true);
    expect(SecondProblem.isInstance(first)).toBe(false);
    expect(StoreError.isInstance(first)).toBe(true);
    expect(FirstProblem.isInstance(new Error('plain'))).toBe(false);
  });
});
