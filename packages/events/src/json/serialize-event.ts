import type { AnyEvent } from '../schemas/events.js';
import { rawEventText } from './raw-text.js';

/** The event as the JSON object the reference writes (nulls omitted; opaque events unchanged). */
export function eventToJson(event: AnyEvent): Record<string, unknown> {
  if (event.kind === 'OpaqueEvent') return event.json as Record<string, unknown>;
  return event as unknown as Record<string, unknown>;
}

/**
 * Compact JSON text of an event, as written to `event-*.json` files and WebSocket frames. An event
 * parsed from text (`parseEventJson`, so every event read from a log) is written back as exactly that
 * text, byte for byte: numbers such as Python's `1.0` and `1e-07` keep their spelling.
 */
export function serializeEvent(event: AnyEvent): string {
  return rawEventText(event) ?? JSON.stringify(eventToJson(event));
}

/** Compact JSON array text of events (e.g. a page of search results), each as `serializeEvent` writes it. */
export function serializeEvents(events: readonly AnyEvent[]): string {
  return `[${events.map(serializeEvent).join(',')}]`;
}
