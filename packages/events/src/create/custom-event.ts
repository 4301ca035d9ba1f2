import type { EventKindHandle } from '../registry/event-registry.js';
import { type CreateEventOptions, createEventValue } from './create-event.js';

/** Fields for a custom event: everything but `kind`; `id`, `timestamp` and `source` may be left to defaults. */
export type CreateCustomEventInput<E> = Omit<E, 'kind' | 'id' | 'timestamp' | 'source'> & {
  id?: string;
  timestamp?: string;
  source?: E extends { source: infer S } ? S : never;
};

/**
 * Creates a frozen event of a registered custom kind (see `registerEventKind`), validated by the
 * registry it was registered in (pass it in `options.registry` when that is not the default one).
 */
export function createCustomEvent<E>(
  handle: EventKindHandle<E>,
  fields: CreateCustomEventInput<E>,
  options?: CreateEventOptions,
): E {
  return createEventValue(handle.kind, fields, options) as E;
}
