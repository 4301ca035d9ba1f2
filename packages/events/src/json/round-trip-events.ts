/**
 * Events known to survive `parseEventJson(serializeEvent(event))` unchanged: validated by this package
 * (`createEvent`, `parseEvent*`) against the default registry from a value JSON can carry exactly.
 * Frozen, so membership stays true. Lets a writer that must store only events a reader can parse (the
 * `EventLog` of @x/store) skip parsing again what was just validated.
 *
 * An event marked before it is frozen carries the mark itself, as a private field stamped on it (the
 * class-field "return override": invisible to every reflection, spread, `JSON.stringify` and deep
 * equality, never copied, unforgeable): a resume revives 100k events from packs, and a WeakSet of them
 * cost as much as freezing them, plus ephemeron work in every later garbage collection. An event already
 * frozen is kept in the WeakSet instead.
 */
const roundTripSafe = new WeakSet<object>();

/** Returns what it is given, so `new RoundTripStamp(object)` adds the subclass's private field to `object`. */
const ReturnGiven = function (this: unknown, object: object) {
  return object;
} as unknown as new (
  object: object,
) => object;

class RoundTripStamp extends ReturnGiven {
  readonly #safe = true;

  static has(object: object): boolean {
    return #safe in object;
  }
}

/** Marks `event`; call it before freezing the event (on a frozen one it is kept aside). */
export function markRoundTripSafe(event: object): void {
  if (Object.isExtensible(event)) {
    if (!RoundTripStamp.has(event)) new RoundTripStamp(event);
  } else {
    roundTripSafe.add(event);
  }
}

/**
 * True when `event` came from `createEvent` / `createEventValue` / `parseEvent` / `parseEventJson`
 * with the default registry, from a value whose JSON text parses back the same (no non-finite numbers,
 * -0 or undefined array elements): `parseEventJson(serializeEvent(event))` then gives an equal event
 * and cannot throw. False for anything else (it may still round-trip; only parsing can tell).
 */
export function isRoundTripSafe(event: object): boolean {
  return RoundTripStamp.has(event) || roundTripSafe.has(event);
}
