import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { action, observation, userMessage } from '../../test/support/event-builders.js';
import { withParent } from '../create/with-parent.js';
import { parseEventJson } from './parse-event.js';
import { eventParserVersion, reviveValidatedEvent } from './revive-validated-event.js';
import { isRoundTripSafe } from './round-trip-events.js';
import { serializeEvent } from './serialize-event.js';

describe('reviveValidatedEvent', () => {
  it('gives back, from the JSON.parse of a canonical text, the event parseEventJson gives: frozen and round-trip safe', () => {
    for (const event of [userMessage('hello'), action('c1', 'r1', { thought: 'go' }), observation('c1')]) {
      const text = serializeEvent(event);
      expect(JSON.stringify(parseEventJson(text))).toBe(text);
      const revived = reviveValidatedEvent(JSON.parse(text) as Record<string, unknown>);
      expect(revived).toEqual(parseEventJson(text));
      expect(Object.isFrozen(revived)).toBe(true);
      const nested = Object.values(revived).filter((value) => typeof value === 'object' && value !== null);
      expect(nested.length).toBeGreaterThan(0);
      expect(nested.every((value) => Object.isFrozen(value))).toBe(true);
      expect(isRoundTripSafe(revived)).toBe(true);
      expect(serializeEvent(revived)).toBe(text);
    }
  });
});

describe('reviveValidatedEvent, what its cheaper freeze and mark keep', () => {
  it('freezes every level of a deeply nested value, and its mark is invisible and not copied', () => {
    const event = action('c1', 'r1', { thought: 'go' });
    const text = serializeEvent(event);
    const revived = reviveValidatedEvent(JSON.parse(text) as Record<string, unknown>);
    expect(Object.keys(revived)).toEqual(Object.keys(JSON.parse(text) as object));
    expect(JSON.stringify(revived)).toBe(text);
    // The mark is a non-enumerable symbol: nothing that reads keys, serializes or compares sees it.
    const symbols = Object.getOwnPropertySymbols(revived);
    expect(symbols.every((key) => Object.getOwnPropertyDescriptor(revived, key)?.enumerable === false)).toBe(true);
    expect(isRoundTripSafe(structuredClone(revived))).toBe(false);
    expect(isRoundTripSafe({ ...revived })).toBe(false);
    expect(isRoundTripSafe(Object.create(revived) as object)).toBe(false);
    expect(() => {
      (revived as unknown as Record<string, unknown>).id = 'changed';
    }).toThrow(TypeError);

    // Deeper than the recursion goes (the rest is frozen iteratively): every level frozen, no stack overflow.
    // Built as text: JSON.stringify itself would overflow the stack at this depth, JSON.parse does not.
    const depth = 10_000;
    const deep = `${'{"inner":['.repeat(depth)}{"end":true}${']}'.repeat(depth)}`;
    const value = JSON.parse(`${text.slice(0, -1)},"extra":${deep}}`) as Record<string, unknown>;
    reviveValidatedEvent(value);
    let cursor: unknown = value.extra;
    let levels = 0;
    while (cursor !== undefined) {
      expect(Object.isFrozen(cursor)).toBe(true);
      const inner = (cursor as { inner?: unknown[] }).inner;
      if (inner !== undefined) expect(Object.isFrozen(inner)).toBe(true);
      cursor = inner?.[0];
      levels++;
    }
    expect(levels).toBe(depth + 1);
  });

  it('marks events frozen before the mark (withParent copies) as round-trip safe too', () => {
    const event = userMessage('hello');
    expect(isRoundTripSafe(event)).toBe(true);
    const copy = withParent(event, 'parent-1');
    expect(Object.isFrozen(copy)).toBe(true);
    expect(isRoundTripSafe(copy)).toBe(true);
    expect(isRoundTripSafe({ ...copy })).toBe(false);
  });
});

describe('eventParserVersion', () => {
  it("names this package's version", () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(eventParserVersion()).toBe(`@x/events@${manifest.version}`);
  });
});
