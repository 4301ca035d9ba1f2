import type { z } from 'zod';
import type { Observation } from '../schemas/common.js';
import type { ContentPart, Message } from '../schemas/content.js';
import {
  type ActionKindOptions,
  type CustomEventOf,
  createEventRegistry,
  type EventKindHandle,
  type EventKindOptions,
  type EventRegistry,
  type ObjectSchema,
  type ObservationKindOptions,
} from './event-registry.js';

/**
 * The registry `parseEvent`, `createEvent` and LLM conversion use unless given another. A module
 * singleton: registering a kind here makes every reader in the process know it.
 */
export const defaultEventRegistry: EventRegistry = createEventRegistry();

/** Registers an action kind in the default registry (see `EventRegistry.registerActionKind`). */
export function registerActionKind(kind: string, schema: ObjectSchema): void {
  defaultEventRegistry.registerActionKind(kind, schema);
}

/** Registers an observation kind in the default registry, optionally with its own LLM content. */
export function registerObservationKind<S extends ObjectSchema>(
  kind: string,
  schema: S,
  options?: { toLlmContent?: (observation: Observation & z.infer<S>) => readonly ContentPart[] },
): void {
  defaultEventRegistry.registerObservationKind(kind, schema, options);
}

/** Registers a custom event kind in the default registry, optionally with its LLM message. */
export function registerEventKind<const K extends string, S extends ObjectSchema>(
  kind: K,
  schema: S,
  options?: { toLlmMessage?: (event: CustomEventOf<K, S>) => Message | undefined },
): EventKindHandle<CustomEventOf<K, S>> {
  return defaultEventRegistry.registerEventKind(kind, schema, options);
}

/** The registered action kind `kind` (default registry unless given), or undefined. */
export function getActionKindOptions(
  kind: string,
  registry: EventRegistry = defaultEventRegistry,
): ActionKindOptions | undefined {
  return registry.getActionKindOptions(kind);
}

/** The registered observation kind `kind` with its `toLlmContent` hook, or undefined. */
export function getObservationKindOptions(
  kind: string,
  registry: EventRegistry = defaultEventRegistry,
): ObservationKindOptions | undefined {
  return registry.getObservationKindOptions(kind);
}

/** The registered custom event kind `kind` with its `toLlmMessage` hook, or undefined (built-in kinds too). */
export function getEventKindOptions(
  kind: string,
  registry: EventRegistry = defaultEventRegistry,
): EventKindOptions | undefined {
  return registry.getEventKindOptions(kind);
}
