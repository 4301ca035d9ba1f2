/**
 * Events known to survive `parseEventJson(serializeEvent(event))` unchanged: validated by this package
 * (`createEvent`, `parseEvent*`) against the default registry from a value JSON can carry exactly.
 * Frozen, so membership stays true. Lets a writer that must store only events a reader can parse (the
 * `EventLog` of @x/store) skip parsing again what was just validated.
 *
 * An event marked before it is frozen carries the mark itself, as a non-enumerable own property under a
 * symbol of this module (invisible to `Object.keys`, `JSON.stringify`, spreads and deep equality, and
 * never copied): a resume revives 100k events from packs, and a WeakSet of them cost as much as freezing
 * them, plus ephemeron work in every later garbage collection. An event already frozen is kept in the
 * WeakSet instead. (A private field stamped on the event, which no reflection could see or copy, made the
 * resume of 100k events 60% slower in CPU: it was measured and dropped.) Code that copies the symbol off an
 * event onto a value of its own on purpose can forge the mark; nothing does it by accident.
 */
const ROUND_TRIP_SAFE = Symbol('@x/events round-trip safe');
const roundTripSafe = new WeakSet<object>();

/** Marks `event`; call it before freezing the event (or on a frozen one: it is then kept aside). */
export function markRoundTripSafe(event: object): void {
  if (Object.isExtensible(event)) Object.defineProperty(event, ROUND_TRIP_SAFE, { value: true });
  else roundTripSafe.add(event);
}

/**
 * True when `event` came from `createEvent` / `createEventValue` / `parseEvent` / `parseEventJson`
 * with the default registry, from a value whose JSON text parses back the same (no non-finite numbers,
 * -0 or undefined array elements): `parseEventJson(serializeEvent(event))` then gives an equal event
 * and cannot throw. False for anything else (it may still round-trip; only parsing can tell).
 */
export function isRoundTripSafe(event: object): boolean {
  // Own only: an object whose prototype is a marked event is not one.
  return Object.hasOwn(event, ROUND_TRIP_SAFE) || roundTripSafe.has(event);
}
