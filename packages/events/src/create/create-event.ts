import type { z } from 'zod';
import { validateEvent } from '../json/validate-event.js';
import { defaultEventRegistry } from '../registry/default-registry.js';
import type { EventRegistry } from '../registry/event-registry.js';
import type { BuiltinEventKind, builtinEventSchemas, EventOfKind } from '../schemas/events.js';
import { eventTimestamp, newEventId } from './ids.js';

/** Fields accepted when creating an event of kind K: the schema's input minus `kind`; id and timestamp optional. */
export type CreateEventInput<K extends BuiltinEventKind> = Omit<
  z.input<(typeof builtinEventSchemas)[K]>,
  'kind' | 'id' | 'timestamp'
> & { id?: string; timestamp?: string };

export interface CreateEventOptions {
  /** Registry used to validate registered action/observation kinds; the default registry otherwise. */
  readonly registry?: EventRegistry;
}

/**
 * Creates a frozen, validated event of a built-in kind, filling `id` (UUID v4), `timestamp`
 * (reference format), the default `source` and every field default. Nulls count as absent.
 * Invalid fields throw `EventParseError` naming the field.
 */
export function createEvent<K extends BuiltinEventKind>(
  kind: K,
  fields: CreateEventInput<K>,
  options: CreateEventOptions = {},
): EventOfKind<K> {
  return createEventValue(kind, fields, options) as EventOfKind<K>;
}

/** `createEvent` for any kind the registry knows (custom kinds included), untyped. */
export function createEventValue(kind: string, fields: object, options: CreateEventOptions = {}): unknown {
  const given = fields as { id?: unknown; timestamp?: unknown };
  // Key order does not matter here: the schema's output has the reference's order.
  const input = { ...fields, id: given.id ?? newEventId(), timestamp: given.timestamp ?? eventTimestamp(), kind };
  const result = validateEvent(input, {
    registry: options.registry ?? defaultEventRegistry,
    owned: false,
    creating: true,
  });
  if (!result.success) throw result.error;
  return result.event;
}
