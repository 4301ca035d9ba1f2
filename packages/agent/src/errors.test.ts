import { describe, expect, it } from 'vitest';
import { AgentError } from './errors.js';

describe('AgentError', () => {
  it('is recognised by isInstance, also across copies that share the global symbol', () => {
    const error = new AgentError('example', 'something was wrong');
    expect(AgentError.isInstance(error)).toBe(true);
    expect(AgentError.isInstance(new Error('plain'))).toBe(false);
    const foreign = Object.assign(new Error('other copy'), { [Symbol.for('@x/agent.error')]: true });
    expect(AgentError.isInstance(foreign)).toBe(true);
    expect(error.name).toBe('AgentError');
    expect(error.code).toBe('example');
  });

  it('tells subclasses apart: a subclass matches only its own errors and the base matches all', () => {
    class FirstProblem extends AgentError {}
    class SecondProblem extends AgentError {}
    const first = new FirstProblem('first', 'one');
    expect(FirstProblem.isInstance(first)).toBe(true);
    expect(SecondProblem.isInstance(first)).toBe(false);
    expect(AgentError.isInstance(first)).toBe(true);
    expect(FirstProblem.isInstance(new Error('plain'))).toBe(false);
  });
});
