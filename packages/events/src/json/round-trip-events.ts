/**
 * Events known to survive `parseEventJson(serializeEvent(event))` unchanged: validated by this package
 * (`createEvent`, `parseEvent*`) against the default registry from a value JSON can carry exactly.
 * Frozen, so membership stays true. Lets a writer that must store only events a reader can parse (the
 * `EventLog` of @x/store) skip parsing again what was just validated.
 */
const roundTripSafe = new WeakSet<object>();

export function markRoundTripSafe(event: object): void {
  roundTripSafe.add(event);
}

/**
 * True when `event` came from `createEvent` / `createEventValue` / `parseEvent` / `parseEventJson`
 * with the default registry, from a value whose JSON text parses back the same (no non-finite numbers,
 * -0 or undefined array elements): `parseEventJson(serializeEvent(event))` then gives an equal event
 * and cannot throw. False for anything else (it may still round-trip; only parsing can tell).
 */
export function isRoundTripSafe(event: object): boolean {
  return roundTripSafe.has(event);
}
