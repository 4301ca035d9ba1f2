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
});
