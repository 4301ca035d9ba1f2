// The AG-UI shared state at its edges (`shared-state.ts`, pure): RFC 6901 escaping of both special characters in a
// STATE_DELTA path, a key added then removed within one stream, a `null` state (no change), the size bound
// (64 KiB of JSON is accepted, one byte more refused) and the text the model reads.
import { parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import {
  MAX_SHARED_STATE_BYTES,
  SharedStateView,
  sharedStateContent,
  sharedStateDeltaOf,
} from '../../src/faces/ag-ui/shared-state.js';

const update = (value: Record<string, unknown>) =>
  parseEvent({
    timestamp: '2026-01-01T00:00:00.000000',
    id: 'u1',
    source: 'environment',
    key: 'state_delta',
    value,
    kind: 'ConversationStateUpdateEvent',
  });

describe('SharedStateView at the edges', () => {
  it('escapes `~` as ~0 and `/` as ~1 in a patch path (RFC 6901), in that order', () => {
    const view = new SharedStateView({});
    expect(view.logged(update({ 'a~/b': 1 }))).toEqual([
      { type: 'STATE_DELTA', delta: [{ op: 'add', path: '/a~0~1b', value: 1 }] },
    ]);
  });

  it('removes a key it added earlier in the stream, and only once', () => {
    const view = new SharedStateView({});
    view.logged(update({ draft: 'x' }));
    expect(view.logged(update({ draft: null }))).toEqual([
      { type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/draft' }] },
    ]);
    expect(view.logged(update({ draft: null }))).toEqual([]);
    expect(view.snapshot()).toEqual({ type: 'STATE_SNAPSHOT', snapshot: {} });
  });
});

describe('sharedStateDeltaOf at the edges', () => {
  it('takes a null state as no state', () => {
    expect(sharedStateDeltaOf(null, { kept: 1 })).toBeUndefined();
  });

  it('accepts exactly MAX_SHARED_STATE_BYTES of JSON and refuses one byte more', () => {
    const overhead = JSON.stringify({ text: '' }).length;
    const fits = { text: 'x'.repeat(MAX_SHARED_STATE_BYTES - overhead) };
    expect(sharedStateDeltaOf(fits, {})).toEqual(fits);
    const over = { text: 'x'.repeat(MAX_SHARED_STATE_BYTES - overhead + 1) };
    expect(() => sharedStateDeltaOf(over, {})).toThrow(expect.objectContaining({ code: 'invalid_state' }));
  });

  it('gives the model the whole state as JSON, in a text part not marked for prompt caching', () => {
    expect(sharedStateContent({ cart: ['apple'] })).toEqual({
      cache_prompt: false,
      type: 'text',
      text: '<shared_state>\nThe state the user\'s application shares with you, as JSON:\n{"cart":["apple"]}\n</shared_state>',
    });
  });
});
