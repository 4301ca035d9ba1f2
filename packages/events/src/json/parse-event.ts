import type { z } from 'zod';
import { EventParseError, type EventParseIssue } from '../errors/event-parse-error.js';
import { type AnyEvent, builtinEventSchemas } from '../schemas/events.js';
import type { OpaqueEvent } from '../schemas/opaque-event.js';
import { deepFreeze } from './deep-freeze.js';
import { dropNulls } from './drop-nulls.js';

export type SafeParseEventResult = { success: true; event: AnyEvent } | { success: false; error: EventParseError };

/**
 * Parses an event from its JSON value (as read from an event file or a frame). Returns a frozen
 * value. Unknown kinds become an `OpaqueEvent` holding the JSON exactly. Unknown top-level fields on a
 * known kind are kept (so relaying an event written by a newer version loses nothing) but are not
 * part of the type. Throws `EventParseError` naming the id, kind and field paths.
 */
export function parseEvent(value: unknown): AnyEvent {
  const result = safeParseEvent(value);
  if (!result.success) throw result.error;
  return result.event;
}

/** Like `parseEvent`, but returns the error instead of throwing. */
export function safeParseEvent(value: unknown): SafeParseEventResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return failure(undefined, undefined, [{ path: '', message: 'an event must be a JSON object' }]);
  }
  const json = value as Record<string, unknown>;
  const id = typeof json.id === 'string' ? json.id : undefined;
  const kind = json.kind;
  const schema = typeof kind === 'string' ? (builtinEventSchemas as Record<string, z.ZodType>)[kind] : undefined;
  if (schema === undefined) return parseOpaque(json, id);

  const parsed = schema.safeParse(dropNulls(json));
  if (!parsed.success) return failure(id, kind as string, toIssues(parsed.error));
  const event = parsed.data as Record<string, unknown>;
  for (const key of Object.keys(json)) {
    if (!(key in event) && json[key] !== null) event[key] = json[key];
  }
  return { success: true, event: deepFreeze(event) as AnyEvent };
}

/** Parses an event from JSON text. Invalid JSON is an `EventParseError` too. */
export function parseEventJson(text: string): AnyEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new EventParseError({ issues: [{ path: '', message: `not valid JSON (${(cause as Error).message})` }], cause });
  }
  return parseEvent(value);
}

function parseOpaque(json: Record<string, unknown>, id: string | undefined): SafeParseEventResult {
  const issues: EventParseIssue[] = [];
  if (id === undefined || id === '') issues.push({ path: 'id', message: 'an event of an unknown kind still needs a string id' });
  if (typeof json.kind !== 'string') issues.push({ path: 'kind', message: 'missing or not a string' });
  if (issues.length > 0) return failure(id, typeof json.kind === 'string' ? json.kind : undefined, issues);
  const opaque: OpaqueEvent = {
    kind: 'OpaqueEvent',
    opaque_kind: json.kind as string,
    id: id as string,
    timestamp: typeof json.timestamp === 'string' ? json.timestamp : '',
    ...(typeof json.source === 'string' ? { source: json.source as OpaqueEvent['source'] } : {}),
    ...(typeof json.parent_id === 'string' ? { parent_id: json.parent_id } : {}),
    json: structuredClone(json),
  };
  return { success: true, event: deepFreeze(opaque) };
}

function toIssues(error: z.ZodError): EventParseIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/** `['llm_message', 'content', 0, 'text']` → `llm_message.content[0].text`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

function failure(eventId: string | undefined, eventKind: string | undefined, issues: EventParseIssue[]): SafeParseEventResult {
  return {
    success: false,
    error: new EventParseError({
      ...(eventId === undefined ? {} : { eventId }),
      ...(eventKind === undefined ? {} : { eventKind }),
      issues,
    }),
  };
}
