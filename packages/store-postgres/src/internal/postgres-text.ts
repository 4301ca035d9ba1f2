import { InvalidPostgresOptionsError } from '../errors/invalid-postgres-options-error.js';

/** With the `u` flag a surrogate pair is one code point, so this matches only unpaired halves. */
const loneSurrogate = /\p{Surrogate}/u;
const loneSurrogates = /\p{Surrogate}/gu;

/**
 * Why `text` cannot be stored exactly in a PostgreSQL text column, or undefined: the server refuses U+0000 (SQLSTATE
 * 22021), and node-postgres encodes every lone UTF-16 surrogate as U+FFFD, so two keys differing only there would
 * name one row.
 */
function unstorableTextProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character (U+0000), which PostgreSQL text cannot hold';
  if (loneSurrogate.test(text)) {
    return 'contains a lone UTF-16 surrogate (not valid Unicode: PostgreSQL would store it as U+FFFD)';
  }
  return undefined;
}

/** `value`, or `InvalidPostgresOptionsError` naming `option` when PostgreSQL cannot store it exactly (a key). */
export function checkedKey(option: string, value: string): string {
  const problem = typeof value === 'string' ? unstorableTextProblem(value) : `expected a string, got ${typeof value}`;
  if (problem !== undefined) throw new InvalidPostgresOptionsError(option, `${JSON.stringify(value)} ${problem}`);
  return value;
}

/**
 * Display text (a title, a filter on it) as PostgreSQL stores it: a NUL becomes U+FFFD, as node-postgres makes a lone
 * surrogate, so such a title is kept (and found) instead of failing its statement.
 */
export function storableDisplayText(text: string): string {
  return text.replaceAll('\u0000', '\ufffd');
}

/**
 * JSON text with each raw lone surrogate written as its `\uXXXX` escape. In JSON a raw character outside the ASCII
 * structural set can only stand inside a string, where its escape means the same: the text parses to the same value
 * and keeps every other byte (numbers as spelled), and PostgreSQL stores it exactly.
 */
export function escapeLoneSurrogates(json: string): string {
  if (!loneSurrogate.test(json)) return json;
  return json.replace(loneSurrogates, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
}
