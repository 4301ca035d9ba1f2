import { JsonNumberText } from './json-number-text.js';

/**
 * Canonical JSON of a JSON value, as signatures need it: object keys sorted (by UTF-16 code units, as RFC 8785
 * sorts them) at every level, no whitespace, strings and numbers as `JSON.stringify` writes them (which is
 * what RFC 8785 prescribes for both). Keys whose value is `undefined` are left out, as `JSON.stringify` does.
 * Unlike orxhestra we do not NFC-normalize strings: the bytes signed are the bytes stored. A `JsonNumberText`
 * (from `parseJsonKeepingNumbers`: a number no JavaScript number holds exactly) is written as its text.
 */
export function canonicalJson(value: unknown): string {
  if (value instanceof JsonNumberText) return value.text;
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    // undefined, functions and symbols have no JSON form; they only occur as object values (skipped below).
    return text ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}
