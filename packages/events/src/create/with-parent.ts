import { deepFreeze } from '../json/deep-freeze.js';
import { setOwn } from '../json/format-path.js';
import { isRoundTripSafe, markRoundTripSafe } from '../json/round-trip-events.js';
import type { AnyEvent } from '../schemas/events.js';

/**
 * A copy of `event` with `parent_id` set (events are frozen, so this is how one is "re-parented").
 * `parent_id` goes right after `source`, where the reference writes it. Opaque events get it in
 * their JSON too, so it is serialized.
 */
export function withParent<E extends AnyEvent>(event: E, parentId: string): E {
  if (typeof parentId !== 'string' || parentId === '') {
    throw new TypeError(`withParent: parentId must be a non-empty string, got ${JSON.stringify(parentId)}`);
  }
  const copy = insertParent(event as unknown as Record<string, unknown>, parentId);
  if (event.kind === 'OpaqueEvent') copy.json = insertParent(event.json, parentId);
  // A string parent_id cannot change whether the event's JSON text parses back equal. Marked before freezing, so the
  // mark is the copy's own symbol property: marked once frozen, every event a conversation appends went into a
  // WeakSet that grew with the history and added ephemeron work to every garbage collection.
  if (event.kind !== 'OpaqueEvent' && isRoundTripSafe(event)) markRoundTripSafe(copy);
  deepFreeze(copy);
  return copy as unknown as E;
}

/**
 * `object`'s fields with `parent_id` placed as the reference writes it. Walks `Object.keys`, not `Object.entries`:
 * this runs for every event a conversation appends, and the entries made a [key, value] array per field.
 */
export function insertParent(object: Readonly<Record<string, unknown>>, parentId: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const key of Object.keys(object)) {
    if (key === 'parent_id') continue;
    setOwn(out, key, object[key]);
    if (key === 'source') {
      out.parent_id = parentId;
      placed = true;
    }
  }
  if (placed) return out;
  // No source (possible on opaque events): put it after timestamp, else first.
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(out)) {
    setOwn(result, key, out[key]);
    if (key === 'timestamp') result.parent_id = parentId;
  }
  return Object.hasOwn(result, 'parent_id') ? result : { parent_id: parentId, ...result };
}
