import type { AnyEvent } from '../schemas/events.js';
import { freezeParsed } from './deep-freeze.js';
import { PACKAGE_VERSION } from './package-version.js';
import { markRoundTripSafe } from './round-trip-events.js';

/**
 * For caches of events this package already validated (the packed read cache of `@x/store`): turns
 * `JSON.parse(text)` back into the event `parseEventJson(text)` returned, without validating it again,
 * when `text` is a canonical event text, i.e. `JSON.stringify(parseEventJson(text)) === text` (what
 * `createEvent` output serializes to, and what files our writers wrote hold). The result is frozen and
 * round-trip safe like a parsed event. `value` must be what `JSON.parse` just returned, not yet shared or
 * frozen (it is frozen in place). Never call it on text that was not validated that way (by the same
 * `eventParserVersion()`): anything else must go through `parseEventJson`.
 */
export function reviveValidatedEvent(value: Record<string, unknown>): AnyEvent {
  // Marked while still extensible, so the event carries its mark (no WeakSet entry per revived event).
  markRoundTripSafe(value);
  freezeParsed(value);
  return value as unknown as AnyEvent;
}

/**
 * Names the parser (this package's version): a cache of validated events written by another version
 * may hold what that version's schemas made of a text, so it is ignored. The version is compiled in (no
 * file is read), so it holds in a bundle too.
 */
export function eventParserVersion(): string {
  return `@x/events@${PACKAGE_VERSION}`;
}
