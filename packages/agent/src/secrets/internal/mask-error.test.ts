import { inspect } from 'node:util';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { maskErrorChain } from './mask-error.js';

const SECRET = 'sk-live-0123456789abcdef';
const mask = (text: string) => text.replaceAll(SECRET, '<hidden>');

/**
 * What a logger prints of an error: Node's inspection follows `cause`, `errors` and every own property, hidden
 * ones included.
 */
function printed(error: unknown): string {
  return inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true });
}

describe('maskErrorChain', () => {
  it('masks the message, the stack and every own string and object property, in place', () => {
    const error = Object.assign(new Error(`refused ${SECRET}`), {
      providerMessage: `key ${SECRET} is invalid`,
      body: { error: { message: `Incorrect API key provided: ${SECRET}`, code: 'invalid_api_key' } },
      status: 401,
      retryable: false,
      none: null,
    });
    const body = error.body;
    maskErrorChain(error, mask);
    expect(error.message).toBe('refused <hidden>');
    expect(error.stack).toContain('refused <hidden>');
    expect(error.providerMessage).toBe('key <hidden> is invalid');
    expect(error.body).toEqual({ error: { message: 'Incorrect API key provided: <hidden>', code: 'invalid_api_key' } });
    expect(error).toMatchObject({ status: 401, retryable: false, none: null });
    // The body is replaced by a masked copy: an object the SDK may still hold is not changed under it.
    expect(body.error.message).toContain(SECRET);
    expect(printed(error)).not.toContain(SECRET);
  });

  it('leaves an error without the secret exactly as it was', () => {
    const body = { detail: 'nothing to hide' };
    const error = Object.assign(new Error('plain failure'), { body });
    const stack = error.stack;
    maskErrorChain(error, mask);
    expect(error.message).toBe('plain failure');
    expect(error.stack).toBe(stack);
    expect(error.body).toBe(body);
  });

  it('masks every error down a long cause chain', () => {
    let error = new Error(`root ${SECRET}`);
    for (let level = 1; level <= 20; level++) error = new Error(`level ${level}: ${SECRET}`, { cause: error });
    maskErrorChain(error, mask);
    expect(printed(error)).not.toContain(SECRET);
    let bottom: unknown = error;
    while ((bottom as Error).cause !== undefined) bottom = (bottom as Error).cause;
    expect((bottom as Error).message).toBe('root <hidden>');
  });

  it('masks a cause that is a string or a plain object, not only an Error', () => {
    const stringCause = new Error('wrapped', { cause: `token ${SECRET} rejected` });
    const objectCause = new Error('wrapped', { cause: { message: `token ${SECRET} rejected`, status: 401 } });
    maskErrorChain(stringCause, mask);
    maskErrorChain(objectCause, mask);
    expect(stringCause.cause).toBe('token <hidden> rejected');
    expect(objectCause.cause).toEqual({ message: 'token <hidden> rejected', status: 401 });
    expect(printed(stringCause) + printed(objectCause)).not.toContain(SECRET);
  });

  it('masks the errors an AggregateError holds and errors kept in other properties', () => {
    const aggregate = new AggregateError([new Error(`first ${SECRET}`), `second ${SECRET}`, 3], 'all attempts failed');
    const inner = Object.assign(new TypeError(`fetch ${SECRET}`), { body: { detail: `echoed ${SECRET}` } });
    const wrapper = Object.assign(new Error('request failed'), { error: inner });
    maskErrorChain(aggregate, mask);
    maskErrorChain(wrapper, mask);
    expect((aggregate.errors[0] as Error).message).toBe('first <hidden>');
    expect(aggregate.errors.slice(1)).toEqual(['second <hidden>', 3]);
    // Masked where it stands, as the error it is, not swapped for a plain copy of its enumerable fields.
    expect(wrapper.error).toBe(inner);
    expect(inner.message).toBe('fetch <hidden>');
    expect(inner.body).toEqual({ detail: 'echoed <hidden>' });
    expect(printed(aggregate) + printed(wrapper)).not.toContain(SECRET);
  });

  it('masks an error made in another realm (a vm context, a worker-built error)', () => {
    const foreign = runInNewContext(`new Error(${JSON.stringify(`vm ${SECRET}`)})`) as Error;
    expect(foreign instanceof Error).toBe(false);
    const error = new Error('outer', { cause: foreign });
    maskErrorChain(error, mask);
    expect(foreign.message).toBe('vm <hidden>');
    expect(printed(error)).not.toContain(SECRET);
  });

  it('ends on a cycle of causes, masking each error once', () => {
    const first = new Error(`a ${SECRET}`);
    const second = new Error(`b ${SECRET}`, { cause: first });
    Object.defineProperty(first, 'cause', { value: second, configurable: true, writable: true });
    let calls = 0;
    maskErrorChain(first, (text) => {
      // A walk that re-entered the cycle would never end: fail at once instead.
      if (++calls > 20) throw new Error('the walk does not end');
      return mask(text);
    });
    expect([first.message, second.message]).toEqual(['a <hidden>', 'b <hidden>']);
    // message and stack of each error, once: a walk that re-entered would mask the masked text again.
    expect(calls).toBe(4);
  });

  it('leaves read-only and accessor properties as they are, and masks the rest', () => {
    const error = new Error(`message ${SECRET}`);
    Object.defineProperty(error, 'fixed', { value: `fixed ${SECRET}`, writable: false, configurable: false });
    Object.defineProperty(error, 'computed', { get: () => `computed ${SECRET}`, configurable: true });
    expect(() => maskErrorChain(error, mask)).not.toThrow();
    expect(error.message).toBe('message <hidden>');
    expect((error as unknown as { fixed: string }).fixed).toContain(SECRET);
    expect((error as unknown as { computed: string }).computed).toContain(SECRET);
  });

  it('does nothing to values that are not objects', () => {
    for (const value of [undefined, null, 42, `thrown ${SECRET}`]) {
      expect(() => maskErrorChain(value, mask)).not.toThrow();
    }
  });

  it('masks an error held deep inside a plain property, its hidden message and stack included', () => {
    const inner = new Error(`upstream said ${SECRET}`);
    const error = Object.assign(new Error('request failed'), {
      response: { detail: { reasons: [{ error: inner }] }, status: 401 },
    });
    maskErrorChain(error, mask);
    expect(inner.message).toBe('upstream said <hidden>');
    expect(inner.stack).not.toContain(SECRET);
    expect(printed(error)).not.toContain(SECRET);
  });
});
