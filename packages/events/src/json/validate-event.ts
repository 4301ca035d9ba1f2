import type { z } from 'zod';
import { classifyConversationError } from '../create/classify-conversation-error.js';
import { EventParseError, type EventParseIssue } from '../errors/event-parse-error.js';
import { defaultEventRegistry } from '../registry/default-registry.js';
import type { EventRegistry } from '../registry/event-registry.js';
import { validateAction, validateObservation } from '../registry/validate-payload.js';
import { type AnyEvent, builtinEventSchemas } from '../schemas/events.js';
import type { OpaqueEvent } from '../schemas/opaque-event.js';
import { deepFreeze } from './deep-freeze.js';
import { fastParseEvent } from './fast-parse.js';
import { setOwn, toIssues } from './format-path.js';
import { restorePrototypeKeys } from './prototype-key.js';
import { markRoundTripSafe } from './round-trip-events.js';
import { walkJson } from './walk-json.js';

export type SafeParseEventResult = { success: true; event: AnyEvent } | { success: false; error: EventParseError };

const JITLESS = { jitless: true } as const;

/** A Map, not the schemas object: a kind such as `toString` or `__proto__` must find nothing. */
const builtins = new Map<string, z.ZodType>(Object.entries(builtinEventSchemas));

export interface ValidateEventOptions {
  registry: EventRegistry;
  /** The value is ours (fresh from `JSON.parse`), so nothing needs copying before it is frozen. */
  owned: boolean;
  /**
   * `createEvent`'s path: the kinds a conversation creates every step are checked by `fastParseEvent`
   * (the same result as their schema, zod deciding whatever it cannot prove valid). Parsing keeps the
   * schema alone at the trust boundary (files, the network).
   */
  creating?: boolean;
}

/** The one path from a JSON value to a frozen event, shared by parsing and creation. */
export function validateEvent(value: unknown, options: ValidateEventOptions): SafeParseEventResult {
  try {
    return validateEventValue(value, options);
  } catch (error) {
    // Only code outside this package can get here (a registered schema's refinement, a getter or a
    // proxy in a caller's value): reported as a parse failure, so safe parsing never throws.
    const json = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    const message = `could not be validated (${error instanceof Error ? error.message : String(error)})`;
    return failure(ownString(json, 'id'), ownString(json, 'kind'), [{ path: '', message }], error);
  }
}

function validateEventValue(value: unknown, options: ValidateEventOptions): SafeParseEventResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    return failure(undefined, undefined, [{ path: '', message: `an event must be a JSON object, got ${got}` }]);
  }
  const json = value as Record<string, unknown>;
  const id = ownString(json, 'id');
  const kind = Object.hasOwn(json, 'kind') ? json.kind : undefined;
  if (typeof kind !== 'string') return parseOpaque(json, id, options.owned);
  const schema = builtins.get(kind) ?? options.registry.getEventKindOptions(kind)?.schema;
  if (schema === undefined) return parseOpaque(json, id, options.owned);

  let input = walkJson(json, { copy: true, dropNulls: true, foreign: !options.owned });
  if (!input.ok) return failure(id, kind, [input.issue]);
  // Rare: walked again, renaming the key zod would drop (see `PROTOTYPE_KEY_PLACEHOLDER`).
  const prototypeKey = input.prototypeKey;
  if (prototypeKey) input = walkJson(json, { copy: true, dropNulls: true, foreign: true, renamePrototypeKey: true });
  if (!input.ok) return failure(id, kind, [input.issue]);
  const fast = options.creating === true ? fastParseEvent(kind, input.value as Record<string, unknown>) : undefined;
  let event: Record<string, unknown>;
  if (fast !== undefined) {
    event = fast;
  } else {
    // Created events of these kinds are few (a system prompt, a user message): zod's compiled fast path
    // (`new Function` per object schema, ~10 ms for a SystemPromptEvent) would cost more than it saves.
    const parsed = schema.safeParse(input.value, options.creating === true ? JITLESS : undefined);
    if (!parsed.success) return failure(id, kind, toIssues(parsed.error));
    event = parsed.data as Record<string, unknown>;
  }
  const issues = refine(event, options.registry);
  if (issues.length > 0) return failure(id, kind, issues);
  if (prototypeKey) restorePrototypeKeys(event);
  const extraFields = keepUnknownFields(event, json, options.owned);
  // Unknown fields of a caller's value are copied with their nulls, outside the walk that checked losslessness.
  // Marked before it is frozen, so the event carries its mark itself.
  if (options.registry === defaultEventRegistry && input.lossless && (options.owned || extraFields === 0)) {
    markRoundTripSafe(event);
  }
  deepFreeze(event);
  return { success: true, event: event as AnyEvent };
}

/** The own string field `key` of a JSON object (never one inherited from a prototype). */
function ownString(json: Record<string, unknown>, key: string): string | undefined {
  const field = Object.hasOwn(json, key) ? json[key] : undefined;
  return typeof field === 'string' ? field : undefined;
}

/** Checks and fills that depend on the kind: registered payloads, classification, the condensation set. */
function refine(event: Record<string, unknown>, registry: EventRegistry): EventParseIssue[] {
  switch (event.kind) {
    case 'ActionEvent': {
      if (event.action === undefined) return [];
      const result = validateAction(event.action as Parameters<typeof validateAction>[0], registry);
      if ('issues' in result) return result.issues;
      event.action = result.value;
      return [];
    }
    case 'ObservationEvent': {
      const result = validateObservation(event.observation as Parameters<typeof validateObservation>[0], registry);
      if ('issues' in result) return result.issues;
      event.observation = result.value;
      return [];
    }
    case 'ConversationErrorEvent':
      // The reference computes a missing classification on input, so it is always written (§3.13).
      if (event.classification === undefined) {
        insertBeforeKind(
          event,
          'classification',
          classifyConversationError(event.code as string, event.detail as string),
        );
      }
      return [];
    case 'Condensation': {
      // A set in the reference: duplicates in old files are dropped, first occurrence kept.
      const ids = event.forgotten_event_ids as string[];
      if (new Set(ids).size !== ids.length) event.forgotten_event_ids = [...new Set(ids)];
      return [];
    }
    default:
      return [];
  }
}

/**
 * Unknown top-level fields of a known kind are kept (written by a newer version, relayed without
 * loss) but not typed. They go before `kind`, where a newer writer would have put a new field.
 */
function keepUnknownFields(event: Record<string, unknown>, json: Record<string, unknown>, owned: boolean): number {
  const extra = Object.keys(json).filter(
    (key) => !Object.hasOwn(event, key) && json[key] !== null && json[key] !== undefined,
  );
  // Already walked whole (depth, cycles, JSON values) before the schema ran, so copying cannot fail.
  for (const key of extra) insertBeforeKind(event, key, owned ? json[key] : copyJson(json[key]));
  return extra.length;
}

/** Adds a field where the reference's writer would put it: after the others, before the computed `kind`. */
function insertBeforeKind(event: Record<string, unknown>, key: string, value: unknown): void {
  const kind = event.kind;
  delete event.kind;
  setOwn(event, key, value);
  event.kind = kind;
}

function parseOpaque(json: Record<string, unknown>, id: string | undefined, owned: boolean): SafeParseEventResult {
  const kind = Object.hasOwn(json, 'kind') && typeof json.kind === 'string' ? json.kind : undefined;
  // Checked (and, for a caller's value, copied) before it is kept: the same depth limit as known kinds.
  const walked = walkJson(json, { copy: !owned, dropNulls: false, foreign: !owned });
  if (!walked.ok) return failure(id, kind, [walked.issue]);
  const issues: EventParseIssue[] = [];
  if (id === undefined || id === '')
    issues.push({ path: 'id', message: 'an event of an unknown kind still needs a string id' });
  if (kind === undefined) issues.push({ path: 'kind', message: 'missing or not a string' });
  if (issues.length > 0) return failure(id, kind, issues);
  const source = ownString(json, 'source');
  const parentId = ownString(json, 'parent_id');
  const opaque: OpaqueEvent = {
    kind: 'OpaqueEvent',
    opaque_kind: kind as string,
    id: id as string,
    timestamp: ownString(json, 'timestamp') ?? '',
    ...(source === undefined ? {} : { source: source as OpaqueEvent['source'] }),
    ...(parentId === undefined ? {} : { parent_id: parentId }),
    json: walked.value as Record<string, unknown>,
  };
  return { success: true, event: deepFreeze(opaque) };
}

function failure(
  eventId: string | undefined,
  eventKind: string | undefined,
  issues: EventParseIssue[],
  cause?: unknown,
): SafeParseEventResult {
  return {
    success: false,
    error: new EventParseError({
      ...(eventId === undefined ? {} : { eventId }),
      ...(eventKind === undefined ? {} : { eventKind }),
      issues,
      ...(cause === undefined ? {} : { cause }),
    }),
  };
}

/** A copy of a JSON value that has already passed `walkJson`, nulls kept. */
function copyJson(value: unknown): unknown {
  const result = walkJson(value, { copy: true, dropNulls: false, foreign: true });
  return result.ok ? result.value : undefined;
}
