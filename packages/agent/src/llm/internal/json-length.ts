/** A string JSON.stringify writes with escapes: a quote, a backslash, a control character or a surrogate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(value).length` for JSON-like data (what `eventsToMessages` and callers build: plain
 * objects, arrays, strings, finite numbers, booleans, null), without building the text: the offline
 * model measured its first request after resuming a 100k-event conversation by serialising every
 * message, tens of MB of strings made only to be counted. Anything else (a `toJSON`, a non-finite
 * number, a value JSON leaves out) falls back to `JSON.stringify` for that value, so the result is
 * always exact; undefined when JSON.stringify gives undefined.
 */
export function jsonLength(value: unknown): number | undefined {
  switch (typeof value) {
    case 'string':
      return stringLength(value);
    case 'boolean':
      return value ? 4 : 5;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'object':
      if (value === null) return 4;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value)?.length;
      return Array.isArray(value) ? arrayLength(value) : objectLength(value as Record<string, unknown>);
    default:
      return JSON.stringify(value)?.length;
  }
}

function stringLength(text: string): number {
  // Most text needs no escape: its JSON is the text in quotes (the regex allocates nothing).
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text).length : text.length + 2;
}

function arrayLength(items: readonly unknown[]): number {
  // Brackets and the commas between elements; an element JSON leaves out is written `null`.
  let length = 2 + Math.max(0, items.length - 1);
  for (const item of items) length += jsonLength(item) ?? 4;
  return length;
}

function objectLength(object: Record<string, unknown>): number {
  let length = 2;
  let members = 0;
  for (const key of Object.keys(object)) {
    const member = jsonLength(object[key]);
    // A member whose value JSON leaves out (undefined, a function, a symbol) is not written at all.
    if (member === undefined) continue;
    length += stringLength(key) + 1 + member;
    members += 1;
  }
  return length + Math.max(0, members - 1);
}
