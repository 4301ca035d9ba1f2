import { describe, expect, it } from 'vitest';
import { SharedStrings, shareEventStrings } from '../src/event-log/share-strings.js';

/**
 * What one pack's `SharedStrings` remembers for the events after the first: sharing an equal string changes no
 * value (`event-log-packs-shared-strings.test.ts`), so the strings it keeps are the only trace of the sharing, and
 * what bounds its cost: the words longer than what `JSON.parse` shares already (10 characters), at most 16, each
 * once; the latest 4 ids and tool call ids.
 */

const id = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('SharedStrings', () => {
  it('keeps each kind, source and tool name longer than 10 characters once, in order of appearance', () => {
    const shared = new SharedStrings();
    const events: Record<string, unknown>[] = [
      { id: id(1), kind: 'MessageEvent', source: 'user' },
      {
        id: id(2),
        kind: 'ActionEvent',
        source: 'agent',
        tool_name: 'str_replace_editor',
        action: { kind: 'abcdefghij' },
      },
      {
        id: id(3),
        kind: 'ObservationEvent',
        source: 'environment',
        tool_name: 'str_replace_editor',
        observation: { kind: 'TerminalObservation' },
      },
      { id: id(4), kind: 'ActionEvent', source: 'agent', action: { kind: 'TerminalAction' } },
      { id: id(5), kind: 'MessageEvent', source: 'environment' },
    ];
    for (const event of events) {
      const before = JSON.stringify(event);
      shareEventStrings(event, shared);
      expect(JSON.stringify(event)).toBe(before);
    }
    // 'user', 'agent' and the 10 characters of 'abcdefghij' are shared by JSON.parse already.
    expect(shared.words).toEqual([
      'MessageEvent',
      'ActionEvent',
      'str_replace_editor',
      'ObservationEvent',
      'environment',
      'TerminalObservation',
      'TerminalAction',
    ]);
  });

  it('keeps at most 16 words: the first ones (later ones are left as they are)', () => {
    const shared = new SharedStrings();
    const kinds = Array.from({ length: 20 }, (_, k) => `SomeKindOfEvent${k}`);
    for (const [k, kind] of kinds.entries()) {
      const event: Record<string, unknown> = { id: id(k), kind };
      shareEventStrings(event, shared);
      expect(event.kind).toBe(kind);
    }
    expect(shared.words).toEqual(kinds.slice(0, 16));
    // A word it keeps is found again, whichever its place; one it could not keep is not added either.
    for (const kind of [kinds[0]!, kinds[15]!, kinds[19]!]) shareEventStrings({ id: id(99), kind }, shared);
    expect(shared.words).toEqual(kinds.slice(0, 16));
  });

  it('keeps the latest 4 ids and the latest 4 tool call ids longer than 10 characters, oldest first', () => {
    const shared = new SharedStrings();
    const calls = ['toolu_0000001', 'call_1', 'toolu_0000003', 'toolu_0000004', 'toolu_0000005', 'toolu_0000006'];
    for (const [k, call] of calls.entries()) shareEventStrings({ id: id(k), tool_call_id: call }, shared);
    shareEventStrings({ kind: 'NoIdEvent!!', tool_call_id: 7 }, shared);
    expect(shared.ids).toEqual([id(2), id(3), id(4), id(5)]);
    expect(shared.callIds).toEqual(['toolu_0000003', 'toolu_0000004', 'toolu_0000005', 'toolu_0000006']);
    const first = new SharedStrings();
    shareEventStrings({ id: id(1), tool_call_id: 'toolu_0000001' }, first);
    expect(first.ids).toEqual([id(1)]);
    expect(first.callIds).toEqual(['toolu_0000001']);
  });
});
