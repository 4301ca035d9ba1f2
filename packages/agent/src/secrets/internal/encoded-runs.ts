/** The runs of one encoding in a text: their data, where they are in the text and in the stream of all their data. */
export interface EncodedRuns {
  /** Each run's characters without line breaks and escapes (`%2B` is a `+`). */
  data: string[];
  textStarts: number[];
  textEnds: number[];
  /** Where each run's data starts and ends once all are joined with a separator of `runSeparatorLength`. */
  streamStarts: number[];
  streamEnds: number[];
  /**
   * The lines of all runs in order (a run wrapped over 3 lines has 3): where each starts in the stream, and its
   * span in the text (the first takes in escapes before the run, the last its padding).
   */
  lineStreamStarts: number[];
  lineTextStarts: number[];
  lineTextEnds: number[];
}

export const runSeparatorLength = 4;

/** Both base64 alphabets: standard (`+/`) and URL-safe (`-_`); Node decodes either. */
const base64Class = '[A-Za-z0-9+/_-]';
const hexClass = '[0-9A-Fa-f]';
/** RFC 4648 base32, as `base32` writes it: upper case. */
const base32Class = '[A-Z2-7]';

/**
 * Unbroken stretches of data characters: `find` looks for the first long one of a run, `next` (sticky) for one
 * right after a line break or an escape. Only these are regular expressions (a plain character class, which the engine scans
 * natively and without a backtracking stack however long the stretch); the line breaks and escapes that join
 * stretches into one run are looked at in code, only where a stretch ends.
 */
interface Stretches {
  find: RegExp;
  next: RegExp;
}

const compiled = new Map<string, Stretches>();

function stretches(characterClass: string, minimum: number): Stretches {
  const key = `${characterClass}${minimum}`;
  const cached = compiled.get(key);
  if (cached !== undefined) return cached;
  // `{n}` then `+`, not `{n,}`: the engine runs `+` over a character class as a tight loop, but `{n,}` keeps a
  // backtrack entry per character and overflows the stack on a run of a few megabytes.
  const made = {
    find: new RegExp(`${characterClass}{${minimum - 1}}${characterClass}+`, 'gu'),
    next: new RegExp(`${characterClass}+`, 'yu'),
  };
  compiled.set(key, made);
  return made;
}

/**
 * How many characters at `at` spell one base64 character another way, 0 if none: `+` and `/` percent-encoded
 * (`%2B`, `%2F`: a token in a URL query) and `/` escaped by a JSON encoder (PHP's `\/`).
 */
function escapeLength(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === 0x5c) return text.charCodeAt(at + 1) === 0x2f ? 2 : 0;
  if (code !== 0x25 || text.charCodeAt(at + 1) !== 0x32) return 0;
  const last = text.charCodeAt(at + 2) | 0x20;
  return last === 0x62 || last === 0x66 ? 3 : 0;
}

/** The base64 character an escape at `at` stands for. */
function unescaped(text: string, at: number): string {
  return text[at] === '\\' ? '/' : (text.charCodeAt(at + 2) | 0x20) === 0x62 ? '+' : '/';
}

/** The length of a line break at `at` (`\n`, `\r\n`, or the JSON escapes `\n`, `\r\n` as written), 0 if none. */
function lineBreakLength(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === 0x0a) return 1;
  if (code === 0x0d) return text.charCodeAt(at + 1) === 0x0a ? 2 : 0;
  if (code !== 0x5c) return 0;
  const next = text.charCodeAt(at + 1);
  if (next === 0x6e) return 2;
  if (next === 0x72 && text.charCodeAt(at + 2) === 0x5c && text.charCodeAt(at + 3) === 0x6e) return 4;
  return 0;
}

/** `=` padding after a base64 or base32 run, as written or percent-encoded (`%3D`): part of the run's span, not data. */
function paddingLength(text: string, at: number): number {
  if (text.charCodeAt(at) === 0x3d) return 1;
  if (text.charCodeAt(at) === 0x25 && text.charCodeAt(at + 1) === 0x33 && (text.charCodeAt(at + 2) | 0x20) === 0x64) {
    return 3;
  }
  return 0;
}

/**
 * The maximal runs of base64, hex or base32 characters in `text` with at least `minimumData` characters of data
 * (default `minimumChars`), each found from a stretch of `minimumChars`. A run goes on over a line break followed by
 * more data (`base64` and `base32` wrap at 76 columns, `xxd -p` at 60; also `\n` written inside a JSON string) and,
 * in base64, over escaped characters, in either direction; its span takes in the `=` padding after it (up to two in
 * base64, six in base32). A run starts at a stretch of `minimumChars` (runs of shorter stretches joined by escapes are found
 * from their first long stretch): ordinary words and random bytes hold short stretches every few characters, and
 * looking at each would cost more than all the rest.
 */
export function scanRuns(
  text: string,
  options: { encoding: 'base64' | 'hex' | 'base32'; minimumChars: number; minimumData?: number },
): EncodedRuns {
  const minimumData = options.minimumData ?? options.minimumChars;
  const base64 = options.encoding === 'base64';
  const characterClass = base64 ? base64Class : options.encoding === 'hex' ? hexClass : base32Class;
  const { find, next } = stretches(characterClass, options.minimumChars);
  /** Base64 pads to whole groups of 4 characters with up to 2 `=`, base32 to groups of 8 with up to 6. */
  const padding = base64 ? 2 : options.encoding === 'base32' ? 6 : 0;
  const runs: EncodedRuns = {
    data: [],
    textStarts: [],
    textEnds: [],
    streamStarts: [],
    streamEnds: [],
    lineStreamStarts: [],
    lineTextStarts: [],
    lineTextEnds: [],
  };
  let stream = 0;
  let previousEnd = 0;
  find.lastIndex = 0;
  for (let match = find.exec(text); match !== null; match = find.exec(text)) {
    let start = match.index;
    let data = match[0];
    let end = start + data.length;
    if (base64 && start > previousEnd && escapeLength(text, start - 1) === 3) {
      // The stretch began inside an escape (`%2Fab...`: `2F` are base64 characters too).
      start -= 1;
      data = unescaped(text, start) + data.slice(2);
      [start, data] = dataBefore(text, start, data, previousEnd);
    }
    for (let back = base64 ? escapeBefore(text, start, previousEnd) : 0; back > 0; ) {
      start -= back;
      [start, data] = dataBefore(text, start, unescaped(text, start) + data, previousEnd);
      back = escapeBefore(text, start, previousEnd);
    }
    const lines = runs.lineTextEnds.length;
    runs.lineStreamStarts.push(stream);
    runs.lineTextStarts.push(start);
    for (;;) {
      const escaped = base64 ? escapeLength(text, end) : 0;
      const skip = escaped > 0 ? escaped : lineBreakLength(text, end);
      next.lastIndex = end + skip;
      const following = skip > 0 ? next.exec(text) : null;
      if (escaped === 0 && following === null) break;
      if (escaped > 0) {
        data += unescaped(text, end);
      } else {
        runs.lineTextEnds.push(end);
        runs.lineStreamStarts.push(stream + data.length);
        runs.lineTextStarts.push(end + skip);
      }
      end += skip;
      if (following !== null) {
        data += following[0];
        end += following[0].length;
      }
    }
    for (let pad = 0; pad < padding; pad++) end += paddingLength(text, end);
    find.lastIndex = end;
    previousEnd = end;
    if (data.length < minimumData) {
      // Too short to hold what is looked for: its characters are passed over all the same, so that the runs after
      // it are found exactly as they would be, but it takes no place in the stream.
      while (runs.lineStreamStarts.length > lines) runs.lineStreamStarts.pop();
      while (runs.lineTextStarts.length > lines) runs.lineTextStarts.pop();
      while (runs.lineTextEnds.length > lines) runs.lineTextEnds.pop();
      continue;
    }
    runs.lineTextEnds.push(end);
    runs.data.push(data);
    runs.textStarts.push(start);
    runs.textEnds.push(end);
    runs.streamStarts.push(stream);
    stream += data.length;
    runs.streamEnds.push(stream);
    stream += runSeparatorLength;
  }
  return runs;
}

function isBase64(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2f ||
    code === 0x2d ||
    code === 0x5f
  );
}

/**
 * A run reaching back from an escape at `start` over the base64 characters right before it, up to another escape
 * (whose `2F` are base64 characters too) or `floor`.
 */
function dataBefore(text: string, start: number, data: string, floor: number): [number, string] {
  let from = start;
  while (from > floor && isBase64(text.charCodeAt(from - 1)) && escapeBefore(text, from, floor) === 0) from -= 1;
  return [from, text.slice(from, start) + data];
}

/** The length of a base64 escape (`%2B`, `%2F`, `\/`) ending right before `at` and after `floor`, 0 if none. */
function escapeBefore(text: string, at: number, floor: number): number {
  if (at - 3 >= floor && escapeLength(text, at - 3) === 3) return 3;
  if (at - 2 >= floor && escapeLength(text, at - 2) === 2) return 2;
  return 0;
}
