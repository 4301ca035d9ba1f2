/**
 * The forms of one secret value that masking looks for besides the literal text: base64 (standard and URL-safe,
 * at the three byte alignments a value embedded in longer data can have), percent-encoding (URI component, form
 * and mixed-case escapes), hex (either case) and JSON string escaping. Each form becomes one regular expression
 * whose every match is masked.
 *
 * An encoded form shorter than its minimum is left out: a base64 or hex run of a few characters occurs by chance in
 * ordinary output far too often to hide it. Base64 needs 6 stable characters (every alignment of a value of 5 bytes
 * or more), hex 8 digits (4 bytes or more).
 */
const minimumBase64Length = 6;
const minimumHexLength = 8;

/** Encoders wrap long output (`base64` at 76 columns, `xxd -p` at 60): a line break may sit between any 2 chars. */
const lineBreak = '(?:\\r?\\n)?';

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The regular expressions (global, Unicode) matching the encoded forms of `value`. */
export function secretPatterns(value: string): RegExp[] {
  const bytes = new TextEncoder().encode(value);
  const sources = [percentSource(value), ...base64Sources(bytes), jsonSource(value)];
  const patterns = sources.map((source) => new RegExp(source, 'gu'));
  const hex = hexSource(bytes);
  if (hex !== undefined) patterns.push(new RegExp(hex, 'giu'));
  return patterns;
}

/**
 * Every character either as itself or as the `%XX` escapes of its UTF-8 bytes (hex digits in either case), and a
 * space also as `+`: this covers encodeURIComponent, encodeURI, form encoding (URLSearchParams, `quote_plus`) and
 * encoders that escape more or fewer characters. It also matches the literal value; the caller leaves that match
 * to the literal rule (which has its own minimum length).
 */
function percentSource(value: string): string {
  let source = '';
  for (const char of value) {
    const escapes = [...new TextEncoder().encode(char)]
      .map((byte) => `%${caseless(byte.toString(16).padStart(2, '0'))}`)
      .join('');
    // Longest first: a regular expression takes the first alternative that matches, not the longest.
    const alternatives = [escapes, ...(char === ' ' ? ['\\+'] : []), escapeRegExp(char)];
    source += `(?:${alternatives.join('|')})`;
  }
  return source;
}

/**
 * A value's bytes inside longer data start at offset 0, 1 or 2 modulo 3. For each alignment the characters that
 * depend only on the value's bits are the same whatever surrounds it: those are matched (standard or URL-safe
 * alphabet, possibly wrapped), plus, when the value ends the data, the last partial character and its `=` padding.
 * The at most two characters that mix a neighbour's bits with the value's stay visible (4 bits of the value each).
 */
function base64Sources(bytes: Uint8Array): string[] {
  const sources: string[] = [];
  for (const offset of [0, 1, 2]) {
    const shifted = new Uint8Array(offset + bytes.length);
    shifted.set(bytes, offset);
    const encoded = Buffer.from(shifted).toString('base64');
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const stable = encoded.slice(start, end);
    if (stable.length < minimumBase64Length) continue;
    const tail = encoded.slice(end).replace(/=+$/u, '');
    const padding = encoded.length - encoded.replace(/=+$/u, '').length;
    const ending = tail === '' ? '' : `(?:${lineBreak}${base64Char(tail)}(?:${lineBreak}={${padding}})?)?`;
    sources.push([...stable].map(base64Char).join(lineBreak) + ending);
  }
  return sources;
}

function base64Char(char: string): string {
  if (char === '+') return '[+\\-]';
  if (char === '/') return '[/_]';
  if (!base64Alphabet.includes(char)) throw new Error(`not a base64 character: ${char}`);
  return char;
}

/**
 * Hex of the UTF-8 bytes, matched case-insensitively; pairs may be split by one separator (`:`, `-`, space, a line
 * break, a comma with or without a space) and prefixed `\x` or `0x` (a C or Python byte list).
 */
function hexSource(bytes: Uint8Array): string | undefined {
  if (bytes.length * 2 < minimumHexLength) return undefined;
  const pairs = [...bytes].map((byte) => `(?:\\\\x|0x)?${byte.toString(16).padStart(2, '0')}`);
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
function jsonSource(value: string): string {
  let source = '';
  for (const char of value) {
    const units = [...Array(char.length).keys()].map((index) => char.charCodeAt(index));
    const unicode = units.map((unit) => `\\\\u${caseless(unit.toString(16).padStart(4, '0'))}`).join('');
    const alternatives = [unicode];
    const short = shortEscapes[char];
    if (short !== undefined) alternatives.push(escapeRegExp(short));
    if (JSON.stringify(char) === `"${char}"`) alternatives.push(escapeRegExp(char));
    source += `(?:${alternatives.join('|')})`;
  }
  return source;
}

function caseless(hex: string): string {
  return [...hex].map((digit) => (/[a-f]/u.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/gu, '\\$&');
}
