import { describe, expect, it } from 'vitest';
import { CliError } from './errors.js';

describe('CliError', () => {
  it('is recognised by isInstance, also across copies that share the global symbol', () => {
    const error = new CliError('example', 'something was wrong');
    expect(CliError.isInstance(error)).toBe(true);
    expect(CliError.isInstance(new Error('plain'))).toBe(false);
    const foreign = Object.assign(new Error('other copy'), { [Symbol.for('@x/cli.error')]: true });
    expect(CliError.isInstance(foreign)).toBe(true);
    expect(error.name).toBe('CliError');
    expect(error.code).toBe('example');
  });

  it('tells subclasses apart: a subclass matches only its own errors and the base matches all', () => {
    class FirstProblem extends CliError {}
    class SecondProblem extends CliError {}
    const first = new FirstProblem('first', 'one');
    expect(FirstProblem.isInstance(first)).toBe(true);
    expect(SecondProblem.isInstance(first)).toBe(false);
    expect(CliError.isInstance(first)).toBe(true);
    expect(FirstProblem.isInstance(new Error('plain'))).toBe(false);
  });
});
