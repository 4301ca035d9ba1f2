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
});
