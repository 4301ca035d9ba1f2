import type { z } from 'zod';
import { EventParseError } from '../errors/event-parse-error.js';
import { deepFreeze } from '../json/deep-freeze.js';
import { formatPath } from '../json/parse-event.js';
import { type BuiltinEventKind, builtinEventSchemas, type EventOfKind } from '../schemas/events.js';
import { eventTimestamp, newEventId } from './ids.js';

/** Fields accepted when creating an event of kind K: the schema's input minus `kind`; id and timestamp optional. */
export type CreateEventInput<K extends BuiltinEventKind> = Omit<
  z.input<(typeof builtinEventSchemas)[K]>,
  'kind' | 'id' | 'timestamp'
> & { id?: string; timestamp?: string };

/**
 * Creates a frozen, validated event of a built-in kind, filling `id` (UUID v4), `timestamp`
 * (reference format), the default `source` and every field default. Invalid fields throw
 * `EventParseError` naming the field.
 */
export function createEvent<K extends BuiltinEventKind>(kind: K, fields: CreateEventInput<K>): EventOfKind<K> {
  const schema = builtinEventSchemas[kind] as z.ZodType;
  const input = { id: newEventId(), timestamp: eventTimestamp(), ...fields, kind };
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new EventParseError({
      eventId: input.id,
      eventKind: kind,
      issues: parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    });
  }
  return deepFreeze(parsed.data) as EventOfKind<K>;
}
