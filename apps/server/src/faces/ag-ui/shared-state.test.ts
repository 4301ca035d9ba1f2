import { parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { MAX_SHARED_STATE_BYTES, SharedStateView, sharedStateDeltaOf } from './shared-state.js';

const update = (value: unknown, key = 'state_delta') =>
  parseEvent({
    timestamp: '2026-01-01T00:00:00.000000',
    id: `u-${key}`,
    source: 'environment',
    key,
    value,
    kind: 'ConversationStateUpdateEvent',
  });

describe('sharedStateDeltaOf', () => {
  it('sets the keys that differ, removes a present key sent as null, and leaves unsent keys alone', () => {
    const current = { theme: 'dark', items: [1, 2], gone: 1, kept: true };
    expect(sharedStateDeltaOf({ theme: 'light', items: [1, 2], gone: null, absent: null }, current)).toEqual({
      theme: 'light',
      gone: null,
    });
    expect(sharedStateDeltaOf({ items: [1, 2] }, current)).toBeUndefined();
    expect(sharedStateDeltaOf({}, current)).toBeUndefined();
    expect(sharedStateDeltaOf(undefined, current)).toBeUndefined();
  });

  it('refuses a state that is not a JSON object, or too large, as invalid_state', () => {
    expect(() => sharedStateDeltaOf([1], {})).toThrow(expect.objectContaining({ code: 'invalid_state' }));
    expect(() => sharedStateDeltaOf('x', {})).toThrow(/must be a JSON object, got a string/);
    const big = { text: 'x'.repeat(MAX_SHARED_STATE_BYTES) };
    expect(() => sharedStateDeltaOf(big, {})).toThrow(expect.objectContaining({ code: 'invalid_state' }));
  });
});

describe('sharedStateDeltaOf, the bound on the state as stored', () => {
  const third = 'x'.repeat(Math.floor(MAX_SHARED_STATE_BYTES / 3));

  it('refuses an input of a new key that would take the merged state over the bound, small as the input is', () => {
    const current = { a: third, b: third };
    expect(sharedStateDeltaOf({ c: third.slice(100) }, current)).toEqual({ c: third.slice(100) });
    expect(() => sharedStateDeltaOf({ c: third }, current)).toThrow(
      expect.objectContaining({
        code: 'invalid_state',
        message: expect.stringMatching(/would hold \d+ bytes of JSON/),
      }),
    );
  });

  it('counts the keys the input removes (null) and replaces, not only those it adds', () => {
    const current = { a: third, b: third };
    expect(sharedStateDeltaOf({ a: null, c: third }, current)).toEqual({ a: null, c: third });
    expect(sharedStateDeltaOf({ a: 'short', c: third }, current)).toEqual({ a: 'short', c: third });
  });

  it('lets a state already over the bound shrink or change at its size, never grow', () => {
    const over = { a: 'x'.repeat(MAX_SHARED_STATE_BYTES), b: 'yy' };
    expect(sharedStateDeltaOf({ b: null }, over)).toEqual({ b: null });
    expect(sharedStateDeltaOf({ b: 'zz' }, over)).toEqual({ b: 'zz' });
    expect(() => sharedStateDeltaOf({ b: 'yyy' }, over)).toThrow(expect.objectContaining({ code: 'invalid_state' }));
  });
});

describe('SharedStateView', () => {
  it('turns session-state updates into JSON Patches that apply to what the client has', () => {
    const view = new SharedStateView({ a: 1 });
    expect(view.snapshot()).toEqual({ type: 'STATE_SNAPSHOT', snapshot: { a: 1 } });
    expect(view.logged(update({ 'b/c': { d: 2 }, a: null, never: null }))).toEqual([
      {
        type: 'STATE_DELTA',
        delta: [
          { op: 'add', path: '/b~1c', value: { d: 2 } },
          { op: 'remove', path: '/a' },
        ],
      },
    ]);
    // Removing what the client does not have is no patch at all; other state updates are not the shared state.
    expect(view.logged(update({ a: null }))).toEqual([]);
    expect(view.logged(update({ x: 1 }, 'stats'))).toEqual([]);
  });
});
