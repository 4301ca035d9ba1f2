import type { z } from 'zod';
import { classifyConversationError } from '../create/classify-conversation-error.js';
import { EventParseError, type EventParseIssue } from '../errors/event-parse-error.js';
import type { EventRegistry } from '../registry/event-registry.js';
import { validateAction, validateObservation } from '../registry/validate-payload.js';
import { type AnyEvent, builtinEventSchemas } from '../schemas/events.js';
import type { OpaqueEvent } from '../schemas/opaque-event.js';
import { deepFreeze } from './deep-freeze.js';
import { dropNulls } from './drop-nulls.js';
import { setOwn, toIssues } from './format-path.js';

export type SafeParseEventResult = { success: true; event: AnyEvent } | { success: false; error: EventParseError };

const builtins = builtinEventSchemas as Record<string, z.ZodType>;

/**
 * The one path from a JSON value to a frozen event, shared by parsing and creation. `owned` says
 * the value is ours (fresh from `JSON.parse`), so nothing needs copying before it is frozen.
 */
export function validateEvent(
  value: unknown,
  options: { registry: EventRegistry; owned: boolean },
): SafeParseEventResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    return failure(undefined, undefined, [{ path: '', message: `an event must be a JSON object, got ${got}` }]);
  }
  const json = value as Record<string, unknown>;
  const id = typeof json.id === 'string' ? json.id : undefined;
  const kind = json.kind;
  if (typeof kind !== 'string') return parseOpaque(json, id, options.owned);
  const schema = builtins[kind] ?? options.registry.getEventKindOptions(kind)?.schema;
  if (schema === undefined) return parseOpaque(json, id, options.owned);

  const parsed = schema.safeParse(dropNulls(json, !options.owned));
  if (!parsed.success) return failure(id, kind, toIssues(parsed.error));
  const event = parsed.data as Record<string, unknown>;
  const issues = refine(event, options.registry);
  if (issues.length > 0) return failure(id, kind, issues);
  keepUnknownFields(event, json, options.owned);
  return { success: true, event: deepFreeze(event) as AnyEvent };
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
function keepUnknownFields(event: Record<string, unknown>, json: Record<string, unknown>, owned: boolean): void {
  const extra = Object.keys(json).filter(
    (key) => !Object.hasOwn(event, key) && json[key] !== null && json[key] !== undefined,
  );
  for (const key of extra) insertBeforeKind(event, key, owned ? json[key] : structuredClone(json[key]));
}

/** Adds a field where the reference's writer would put it: after the others, before the computed `kind`. */
function insertBeforeKind(event: Record<string, unknown>, key: string, value: unknown): void {
  const kind = event.kind;
  delete event.kind;
  setOwn(event, key, value);
  event.kind = kind;
}

function parseOpaque(json: Record<string, unknown>, id: string | undefined, owned: boolean): SafeParseEventResult {
  const issues: EventParseIssue[] = [];
  if (id === undefined || id === '')
    issues.push({ path: 'id', message: 'an event of an unknown kind still needs a string id' });
  if (typeof json.kind !== 'string') issues.push({ path: 'kind', message: 'missing or not a string' });
  const kind = typeof json.kind === 'string' ? json.kind : undefined;
  if (issues.length > 0) return failure(id, kind, issues);
  const opaque: OpaqueEvent = {
    kind: 'OpaqueEvent',
    opaque_kind: json.kind as string,
    id: id as string,
    timestamp: typeof json.timestamp === 'string' ? json.timestamp : '',
    ...(typeof json.source === 'string' ? { source: json.source as OpaqueEvent['source'] } : {}),
    ...(typeof json.parent_id === 'string' ? { parent_id: json.parent_id } : {}),
    json: owned ? json : structuredClone(json),
  };
  return { success: true, event: deepFreeze(opaque) };
}

function failure(
  eventId: string | undefined,
  eventKind: string | undefined,
  issues: EventParseIssue[],
): SafeParseEventResult {
  return {
    success: false,
    error: new EventParseError({
      ...(eventId === undefined ? {} : { eventId }),
      ...(eventKind === undefined ? {} : { eventKind }),
      issues,
    }),
  };
}
