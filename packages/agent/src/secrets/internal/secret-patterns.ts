/**
 * The forms of one secret value that masking looks for besides the literal text: percent-encoding (URI component,
 * form and mixed-case escapes; also the literal value split by line breaks, as `fold` writes it), hex (either case)
 * and JSON string escaping. Each form becomes one regular expression whose every match is masked. Base64 is not
 * among them: its characters do not line up with the value's bytes (the base64 of `user:password` does not contain
 * that of `password`), so `decoded-runs.ts` decodes base64 runs and looks for the value in their bytes instead.
 *
 * Hex needs 8 digits (4 bytes or more): a hex run of a few digits occurs by chance in ordinary output far too often
 * to hide it.
 */
const minimumHexLength = 8;

/** `fold`, wrapped logs and encoders (`xxd -p` at 60 columns) break lines: a line break may sit between 2 chars. */
const lineBreak = '(?:\\r?\\n)?';

/**
 * Where the patterns look. `text`: a string as a tool wrote it (UTF-16). `bytes`: decoded data (the bytes of a
 * base64 or hex run) held one byte per character (latin1), where a non-ASCII character appears as its UTF-8 bytes.
 */
export type PatternTarget = 'text' | 'bytes';

/** The value as it appears in `target`: itself, or its UTF-8 bytes one per character. */
export function spelledFor(value: string, target: PatternTarget): string {
  return target === 'text' ? value : Buffer.from(value, 'utf8').toString('latin1');
}

/** The regular expressions (global, Unicode) matching the encoded forms of `value` in `target`. */
export function secretPatterns(value: string, target: PatternTarget = 'text'): RegExp[] {
  return patternSources(value, target).map((source) => new RegExp(source, 'gu'));
}

/**
 * How many characters of a value its screen looks for. Every form is one part per character (per byte for hex)
 * in order, so the forms of the value's first characters match wherever any form of the whole value does. Each
 * value's screen stays a few hundred characters however long the value, and 8 characters of a secret occur by
 * chance almost never.
 */
export const screenedCharacters = 8;

/**
 * Sources matching the forms (literal included) of the first `screenedCharacters` characters of `value`: a
 * necessary condition for any match of its `secretPatterns` or of the literal value. The prefix has 4 bytes or more
 * whenever the value has, so it has a hex form exactly when the value has.
 */
export function screenSources(value: string, target: PatternTarget): string[] {
  const characters = [...value];
  const prefix = characters.length > screenedCharacters ? characters.slice(0, screenedCharacters).join('') : value;
  return patternSources(prefix, target);
}

function patternSources(value: string, target: PatternTarget): string[] {
  const hex = hexSource(new TextEncoder().encode(value));
  return [percentSource(value, target), jsonSource(value, target), ...(hex === undefined ? [] : [hex])];
}

/**
 * Every character either as itself or as the `%XX` escapes of its UTF-8 bytes (hex digits in either case), and a
 * space also as `+`: this covers encodeURIComponent, encodeURI, form encoding (URLSearchParams, `quote_plus`) and
 * encoders that escape more or fewer characters. A line break may sit between two characters (`fold -w`, a log
 * wrapped at a column). It also matches the literal value; the caller leaves that match to the literal rule.
 */
function percentSource(value: string, target: PatternTarget): string {
  const parts: string[] = [];
  for (const char of value) {
    const escapes = [...new TextEncoder().encode(char)]
      .map((byte) => `%${caseless(byte.toString(16).padStart(2, '0'))}`)
      .join('');
    // Longest first: a regular expression takes the first alternative that matches, not the longest.
    const alternatives = [escapes, ...(char === ' ' ? ['\\+'] : []), escapeRegExp(spelledFor(char, target))];
    parts.push(`(?:${alternatives.join('|')})`);
  }
  return parts.join(lineBreak);
}

/**
 * Hex of the UTF-8 bytes, digits in either case; pairs may be split by one separator (`:`, `-`, space, a line
 * break, a comma with or without a space) and prefixed `\x` or `0x` (a C or Python byte list).
 */
function hexSource(bytes: Uint8Array): string | undefined {
  if (bytes.length * 2 < minimumHexLength) return undefined;
  const pairs = [...bytes].map((byte) => `(?:\\\\[xX]|0[xX])?${caseless(byte.toString(16).padStart(2, '0'))}`);
  return pairs.join('(?:, ?|[ :\\-]|\\r?\\n)?');
}

/** JSON's two-character escapes (RFC 8259 §7); `/` may be escaped (PHP's `json_encode` does), the others must be. */
const shortEscapes: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * The value as any JSON encoder may write it inside a string: every character as itself (where JSON allows it
 * unescaped), as its two-character escape (`\"`, `\\`, `\/`, `\n`, ...) or as `\uXXXX` escapes of its UTF-16 code
 * units, hex in either case. This covers `JSON.stringify`, Python's `ensure_ascii` (`\u00e9`, surrogate pairs for
 * astral characters), Go's HTML-safe `\u0026` / `\u003c` and PHP's `\/`. The literal value is matched too and left
 * to the literal rule.
 */
function jsonSource(value: string, target: PatternTarget): string {
  let source = '';
  for (const char of value) {
    const units = [...Array(char.length).keys()].map((index) => char.charCodeAt(index));
    const unicode = units.map((unit) => `\\\\u${caseless(unit.toString(16).padStart(4, '0'))}`).join('');
    const alternatives = [unicode];
    const short = shortEscapes[char];
    if (short !== undefined) alternatives.push(escapeRegExp(short));
    if (JSON.stringify(char) === `"${char}"`) alternatives.push(escapeRegExp(spelledFor(char, target)));
    source += `(?:${alternatives.join('|')})`;
  }
  return source;
}

function caseless(hex: string): string {
  return [...hex].map((digit) => (/[a-f]/u.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/gu, '\\$&');
}
