/**
 * Makes the strings that events of a log repeat one string each, in the values a pack's `JSON.parse` just
 * made (before they are revived and frozen). V8's `JSON.parse` shares keys and values of up to 10 characters;
 * every longer value is a string of its own. A resume holds every event of a long view, and each repeats its
 * `kind` (`ObservationEvent`), its `source` (`environment`), its action's or observation's kind, and names
 * the events before it again (`parent_id`, an observation's `action_id` and `tool_call_id`): ~10 MB of 100k
 * events' heap, which every scavenge copied until it was promoted. Replacing a string with an equal one
 * changes no value, so nothing a reader can see differs (`event-log-packs-shared-strings.test.ts`). The empty
 * `thinking_blocks` and `extended_content` most events carry are shared the same way (one frozen empty array):
 * another ~2 MB.
 *
 * Plain loops over a few recent strings, no Map: hashing each candidate cost more than the comparisons.
 */

/**
 * The one empty array of the fields events usually leave empty (`thinking_blocks`, `extended_content`): frozen
 * like every revived event's arrays, so sharing it is invisible too.
 */
const EMPTY: readonly never[] = Object.freeze([]);

/** Strings of up to this many characters `JSON.parse` already shares (V8 internalizes them). */
const SHARED_BY_PARSE = 10;
/** Distinct kinds, sources and tool names one pack's events share (a pack of arbitrary kinds keeps its first). */
const MAX_WORDS = 16;
/** How many of the latest events' ids and tool call ids a reference is compared with. */
const RECENT = 4;

/** What one pack's events have said so far, for the events after them. */
export class SharedStrings {
  /** Kinds (of events, actions, observations), sources and tool names. */
  readonly words: string[] = [];
  /** The latest events' ids, oldest first: an event's parent is nearly always one of the few events before it. */
  readonly ids: string[] = [];
  /** The latest tool call ids, oldest first: an observation follows its action closely. */
  readonly callIds: string[] = [];
}

/**
 * Replaces repeated strings of one parsed event (a plain, unfrozen object) with equal shared ones, and its empty
 * `thinking_blocks` and `extended_content` with one shared frozen empty array.
 */
export function shareEventStrings(event: Record<string, unknown>, shared: SharedStrings): void {
  const { words, ids, callIds } = shared;
  if (isLong(event.kind)) event.kind = word(words, event.kind);
  if (isLong(event.source)) event.source = word(words, event.source);
  if (isLong(event.tool_name)) event.tool_name = word(words, event.tool_name);
  if (isLong(event.parent_id)) event.parent_id = recent(ids, event.parent_id);
  if (isLong(event.action_id)) event.action_id = recent(ids, event.action_id);
  const callId = event.tool_call_id;
  if (isLong(callId)) event.tool_call_id = recent(callIds, callId);
  const { action, observation, tool_call: call } = event;
  if (isObject(action) && isLong(action.kind)) action.kind = word(words, action.kind);
  if (isObject(observation) && isLong(observation.kind)) observation.kind = word(words, observation.kind);
  // An action's tool call repeats its tool call id (and its observation will again).
  if (isObject(call) && isLong(call.id) && call.id === event.tool_call_id) call.id = event.tool_call_id;
  if (isEmptyArray(event.thinking_blocks)) event.thinking_blocks = EMPTY;
  if (isEmptyArray(event.extended_content)) event.extended_content = EMPTY;
  if (typeof event.id === 'string') push(ids, event.id);
  if (isLong(callId)) push(callIds, event.tool_call_id as string);
}

function isLong(value: unknown): value is string {
  return typeof value === 'string' && value.length > SHARED_BY_PARSE;
}

function isEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The word equal to `value`, which joins the words while there is room. */
function word(words: string[], value: string): string {
  for (let k = 0; k < words.length; k++) if (words[k] === value) return words[k]!;
  if (words.length < MAX_WORDS) words.push(value);
  return value;
}

/** The recent string equal to `value` (newest first), else `value`. */
function recent(list: readonly string[], value: string): string {
  for (let k = list.length - 1; k >= 0; k--) if (list[k] === value) return list[k]!;
  return value;
}

function push(list: string[], value: string): void {
  if (list.length === RECENT) list.shift();
  list.push(value);
}
