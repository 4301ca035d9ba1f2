import type { AnyEvent } from '../schemas/events.js';

/** The event as the JSON object the reference writes (nulls omitted; opaque events unchanged). */
export function eventToJson(event: AnyEvent): Record<string, unknown> {
  if (event.kind === 'OpaqueEvent') return event.json as Record<string, unknown>;
  return event as unknown as Record<string, unknown>;
}

/** Compact JSON text of an event, as written to `event-*.json` files and WebSocket frames. */
export function serializeEvent(event: AnyEvent): string {
  return JSON.stringify(eventToJson(event));
}
