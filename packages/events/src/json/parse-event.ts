import { EventParseError } from '../errors/event-parse-error.js';
import { defaultEventRegistry } from '../registry/default-registry.js';
import type { EventRegistry } from '../registry/event-registry.js';
import type { AnyEvent } from '../schemas/events.js';
import { rememberRawText } from './raw-text.js';
import { type SafeParseEventResult, validateEvent } from './validate-event.js';

export { formatPath } from './format-path.js';
export type { SafeParseEventResult } from './validate-event.js';

export interface ParseEventOptions {
  /** Registry of action, observation and custom event kinds; the default registry otherwise. */
  readonly registry?: EventRegistry;
}

/**
 * Parses an event from its JSON value (as read from an event file or a frame). Returns a frozen
 * value that shares nothing with `value`. Nulls are treated as absent. Unknown kinds become an
 * `OpaqueEvent` holding the JSON exactly. Unknown top-level fields on a known kind are kept (so
 * relaying an event written by a newer version loses nothing) but are not part of the type. A
 * registered action or observation kind is validated against its schema; unregistered ones are
 * kept as they are. Throws `EventParseError` naming the id, kind and field paths.
 */
export function parseEvent(value: unknown, options: ParseEventOptions = {}): AnyEvent {
  const result = safeParseEvent(value, options);
  if (!result.success) throw result.error;
  return result.event;
}

/** Like `parseEvent`, but returns the error instead of throwing. */
export function safeParseEvent(value: unknown, options: ParseEventOptions = {}): SafeParseEventResult {
  return validateEvent(value, { registry: options.registry ?? defaultEventRegistry, owned: false });
}

/**
 * Parses an event from JSON text. Invalid JSON is an `EventParseError` too. The event remembers the
 * text, so `serializeEvent` writes it back byte-equal (numbers included) while it is unchanged.
 */
export function parseEventJson(text: string, options: ParseEventOptions = {}): AnyEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new EventParseError({
      issues: [{ path: '', message: `not valid JSON (${(cause as Error).message})` }],
      cause,
    });
  }
  const result = validateEvent(value, { registry: options.registry ?? defaultEventRegistry, owned: true });
  if (!result.success) throw result.error;
  rememberRawText(result.event, text);
  return result.event;
}
