import type { AnyEvent } from '../schemas/events.js';
import { rawEventText } from './raw-text.js';
import { isRoundTripSafe } from './round-trip-events.js';

/** The event as the JSON object the reference writes (nulls omitted; opaque events unchanged). */
export function eventToJson(event: AnyEvent): Record<string, unknown> {
  if (event.kind === 'OpaqueEvent') return event.json as Record<string, unknown>;
  return event as unknown as Record<string, unknown>;
}

/**
 * The texts of the last few events this package validated and then serialized. An event is serialized more
 * than once right after it is made: the log writes it, then a listener sends or records it (the server's
 * WebSocket frames, an `onEvent` that keeps the bytes), and a step's two or three events are written as one
 * batch before they are announced. Only events validated here are kept: they are deep-frozen plain JSON
 * data (`isRoundTripSafe`), so their text cannot change. A ring, not a WeakMap: the texts of a long history
 * are not held, and nothing is added to the collector's ephemeron work.
 */
const RECENT = 8;
const recentEvents: (object | undefined)[] = new Array<object | undefined>(RECENT).fill(undefined);
const recentTexts: string[] = new Array<string>(RECENT).fill('');
let nextSlot = 0;

/** With the `u` flag a surrogate pair is one code point, so this matches only unpaired halves. */
const loneSurrogates = /\p{Surrogate}/gu;

/**
 * JSON text with each raw lone UTF-16 surrogate written as its `\uXXXX` escape (lower-case hex, as `JSON.stringify`
 * and Python's `json.dumps` write one). UTF-8 cannot encode a lone surrogate: written raw, it reaches a file, a
 * frame or a database as U+FFFD. In JSON a character outside the ASCII structural set stands only inside a string,
 * where its escape means the same, so the text parses to the same value and keeps every other byte.
 */
export function escapeLoneSurrogates(json: string): string {
  // `isWellFormed` (Node 20+) scans natively: the common text, with none, costs no regular expression.
  if ((json as string & { isWellFormed(): boolean }).isWellFormed()) return json;
  return json.replace(loneSurrogates, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
}

/**
 * Compact JSON text of an event, as written to `event-*.json` files and WebSocket frames. An event
 * parsed from text (`parseEventJson`, so every event read from a log) is written back as exactly that
 * text, byte for byte: numbers such as Python's `1.0` and `1e-07` keep their spelling. A raw lone surrogate
 * in that text (parsed from a string that held one) is written as its escape, as `JSON.stringify` writes one
 * in any other event: the text then encodes to UTF-8 exactly and reads back as the same value.
 */
export function serializeEvent(event: AnyEvent): string {
  const raw = rawEventText(event);
  if (raw !== undefined) return escapeLoneSurrogates(raw);
  for (let slot = 0; slot < RECENT; slot++) if (recentEvents[slot] === event) return recentTexts[slot]!;
  const text = JSON.stringify(eventToJson(event));
  // Frozen checked too: a mark is only ever put on an event that is then deep-frozen, but this makes a
  // half-built event (marked, not yet frozen) never cached.
  if (Object.isFrozen(event) && isRoundTripSafe(event)) {
    recentEvents[nextSlot] = event;
    recentTexts[nextSlot] = text;
    nextSlot = (nextSlot + 1) % RECENT;
  }
  return text;
}

/** Compact JSON array text of events (e.g. a page of search results), each as `serializeEvent` writes it. */
export function serializeEvents(events: readonly AnyEvent[]): string {
  return `[${events.map(serializeEvent).join(',')}]`;
}
