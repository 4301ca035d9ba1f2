/**
 * Makes the strings that events of a log repeat one string each, in the values a pack's `JSON.parse` just
 * made (before they are revived and frozen). V8's `JSON.parse` shares only the keys and values of up to 10
 * characters; every longer value is a string of its own. A resume holds every event of a long view, so each of
 * them repeats its `kind` (`ObservationEvent`), its `source` (`environment`), its action's and observation's
 * kinds, and names the events before it again (`parent_id`, an observation's `action_id` and `tool_call_id`):
 * ~10 MB of 100k events' heap, copied by every scavenge until they are promoted. Replacing a string with an
 * equal one changes no value, so nothing a reader can see differs; `share-strings.test.ts` checks that.
 */

/** Values of the few fields whose values come from a small set (event and tool kinds, sources, tool names). */
const vocabulary = new Map<string, string>();
/** Beyond this many distinct values the vocabulary takes no more (a log of arbitrary kinds must not grow it). */
const MAX_VOCABULARY = 512;

/** The shared string equal to `value`, adding it while the vocabulary has room. */
function word(value: string): string {
  const known = vocabulary.get(value);
  if (known !== undefined) return known;
  if (vocabulary.size < MAX_VOCABULARY) vocabulary.set(value, value);
  return value;
}

/** How many of the latest events' ids (and tool call ids) a reference is compared with. */
const RECENT = 4;

/**
 * The ids of a pack's latest events, for the references to them that follow: an event's parent is nearly always
 * one of the few events before it, an observation's action the event before it or close.
 */
export class RecentIds {
  readonly #ids: string[] = [];
  readonly #callIds: string[] = [];

  /** The recent id equal to `value`, or `value`. */
  id(value: unknown): unknown {
    return typeof value === 'string' ? find(this.#ids, value) : value;
  }

  /** The recent tool call id equal to `value`, or `value`. */
  callId(value: unknown): unknown {
    return typeof value === 'string' ? find(this.#callIds, value) : value;
  }

  add(id: unknown, callId: unknown): void {
    if (typeof id === 'string') push(this.#ids, id);
    if (typeof callId === 'string') push(this.#callIds, callId);
  }
}

function find(recent: readonly string[], value: string): string {
  for (let k = recent.length - 1; k >= 0; k--) if (recent[k] === value) return recent[k]!;
  return value;
}

function push(recent: string[], value: string): void {
  if (recent.length === RECENT) recent.shift();
  recent.push(value);
}

/** Replaces repeated strings of one parsed event (a plain, unfrozen object) with shared equal ones. */
export function shareEventStrings(event: Record<string, unknown>, recent: RecentIds): void {
  if (typeof event.kind === 'string') event.kind = word(event.kind);
  if (typeof event.source === 'string') event.source = word(event.source);
  if (typeof event.tool_name === 'string') event.tool_name = word(event.tool_name);
  if (event.parent_id !== undefined) event.parent_id = recent.id(event.parent_id);
  if (event.action_id !== undefined) event.action_id = recent.id(event.action_id);
  if (event.tool_call_id !== undefined) event.tool_call_id = recent.callId(event.tool_call_id);
  shareKind(event.action);
  shareKind(event.observation);
  const call = event.tool_call;
  if (isPlainObject(call)) {
    if (typeof call.name === 'string') call.name = word(call.name);
    // The action's own tool call id, repeated in its tool call (and later in its observation).
    if (typeof call.id === 'string' && call.id === event.tool_call_id) call.id = event.tool_call_id;
  }
  recent.add(event.id, event.tool_call_id);
}

function shareKind(value: unknown): void {
  if (isPlainObject(value) && typeof value.kind === 'string') value.kind = word(value.kind);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
