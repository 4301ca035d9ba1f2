import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { action, observation, userMessage } from '../../test/support/event-builders.js';
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

describe('eventParserVersion', () => {
  it("names this package's version", () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(eventParserVersion()).toBe(`@x/events@${manifest.version}`);
  });
});
