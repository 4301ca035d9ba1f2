import { describe, expect, it } from 'vitest';
import { pageCursor, pagePosition } from './mcp-page-cursor.js';

describe('a page cursor', () => {
  it('gives back the place it names, whatever digits its id holds, with or without a time', () => {
    // Ids of 0s and 9s: a character class that dropped a digit would refuse them.
    const places = [
      { at: '2026-01-02T03:04:05.678+00:00', id: '0123456789abcdef0123456789abcdef' },
      { at: '2026-01-02T03:04:05Z', id: '0000' },
      { at: '2026-01-02T03:04:05', id: 'conversation_9-0' },
      // A conversation recorded without a sort time (a row upserted without one) sorts with an empty `at`.
      { at: '', id: '0' },
    ];
    for (const place of places) {
      expect(pagePosition('list_conversations', pageCursor('list_conversations', place))).toEqual(place);
      expect(pagePosition('resources/list', pageCursor('resources/list', place))).toEqual(place);
    }
  });

  it('names no place without an id, nor with a time that is no time', () => {
    for (const place of ['2026-01-02T03:04:05Z~', '~', '2026-13-01T00:00:00Z~a']) {
      expect(pagePosition('list_conversations', `conversations:${place}`), place).toBeUndefined();
    }
  });
});
