/**
 * A JSON number kept as written, because no JavaScript number holds what it says: an integer past 2^53 that
 * `JSON.parse` rounds (`12345678901234567891` reads as `12345678901234567000`, while Python reads it exactly) or a
 * literal that overflows to Infinity (`1e400`, which `JSON.stringify` would write as `null`). `canonicalJson`
 * writes it as its text, so two events that differ only in such a number never hash alike.
 */
export class JsonNumberText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

// A lossy literal has 16+ digits in a row (past 2^53 ≈ 9.007e15, or a huge mantissa) or a 3+ digit exponent
// (overflow needs e309 or more): text without either is read by `JSON.parse` exactly.
const MAYBE_LOSSY = /\d{16}|[eE][+-]?\d{3}/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/**
 * `JSON.parse(text)`, except that a number no JavaScript number holds exactly is a `JsonNumberText` (see there).
 * Numbers with a fraction or exponent are doubles to every reader (Python's `float` included), so only their value
 * counts: `1.0`, `1e0` and `1` are the same number. Objects have no prototype, so a `__proto__` key is an own key.
 */
export function parseJsonKeepingNumbers(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!MAYBE_LOSSY.test(text)) return value;
  // Valid JSON from here on (JSON.parse accepted it): the reader below need not check the grammar.
  let at = 0;
  const skip = (): void => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.test(text);
    at = WHITESPACE.lastIndex;
  };
  const readString = (): string => {
    const start = at++;
    while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  // Skips whitespace, then steps over `char` when it is next: true when it was.
  const close = (char: string): boolean => {
    skip();
    if (text[at] !== char) return false;
    at++;
    return true;
  };
  const readValue = (): unknown => {
    skip();
    const char = text[at];
    if (char === '"') return readString();
    if (char === '{') {
      const object: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      at++;
      if (close('}')) return object;
      for (;;) {
        skip();
        const key = readString();
        close(':');
        object[key] = readValue();
        if (close('}')) return object;
        close(',');
      }
    }
    if (char === '[') {
      const array: unknown[] = [];
      at++;
      if (close(']')) return array;
      for (;;) {
        array.push(readValue());
        if (close(']')) return array;
        close(',');
      }
    }
    const word = ['true', 'false', 'null'].find((candidate) => text.startsWith(candidate, at));
    if (word !== undefined) {
      at += word.length;
      return JSON.parse(word) as unknown;
    }
    NUMBER.lastIndex = at;
    const literal = NUMBER.exec(text)?.[0] ?? '';
    at += literal.length;
    return numberOf(literal);
  };
  return readValue();
}

function numberOf(literal: string): number | JsonNumberText {
  const value = Number(literal);
  if (!Number.isFinite(value)) return new JsonNumberText(literal);
  if (/[.eE]/.test(literal) || Number.isSafeInteger(value)) return value;
  return BigInt(value) === BigInt(literal) ? value : new JsonNumberText(literal);
}
