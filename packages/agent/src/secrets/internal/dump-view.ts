import { type FindInBytes, lastAtOrBefore, type Span } from './decoded-runs.js';

/**
 * Hex and octal dumps (`xxd`, `hexdump -C`, `hexdump`, `od -c`, `od -b`, `od -x`, `od`, `od -t x4`, `od -An -t x1`):
 * a line's bytes are spelled as tokens between an offset and an ASCII column, so a value is cut by every line break,
 * offset and column, and no run of the text holds it. These read the bytes back out of consecutive dump lines, in
 * every way a dump spells them, and a match hides the whole lines that show any of its bytes (their ASCII columns
 * show its characters too).
 */

/** A dump line: an optional offset (6 to 16 digits, `xxd` adds a colon) and what follows it. */
const dumpLine = /^[ \t]*(?:([0-9A-Fa-f]{6,16}):?)?(.*)$/u;

/** Cheap test that a text may hold a dump: a line starting with an offset, or a line of hex byte tokens. */
const mayHoldDump = /^[ \t]*(?:[0-9A-Fa-f]{6,16}:?[ \t]|[0-9A-Fa-f]{2} [0-9A-Fa-f]{2} )/mu;

/** How one kind of dump spells a line's bytes: the bytes (latin1), or undefined when the line is not of this kind. */
type LineReader = (body: string) => string | undefined;

/**
 * Tokens after the offset, one or two blanks apart (`hexdump -C` puts two in the middle), up to a wider gap. A body
 * after an offset starts with a blank; one without an offset (`od -An`) has had its leading blanks read already.
 */
function tokens(body: string): string[] {
  const match = /^[ \t]*(?:[0-9A-Fa-f]+(?: {1,2}|$))+/u.exec(body);
  return match === null ? [] : match[0].trim().split(/ +/u);
}

/** Hex tokens of whole bytes, as long as the first or shorter (the last group of `xxd`); `reverse`: little-endian words. */
function hexTokens(reverse: boolean): LineReader {
  return (body) => {
    const found = tokens(body);
    const width = (found[0] ?? '').length;
    if (width % 2 !== 0 || (reverse && width === 2)) return undefined;
    let bytes = '';
    for (const token of found) {
      if (token.length % 2 !== 0 || token.length > width) break;
      const decoded = Buffer.from(token, 'hex');
      if (reverse) decoded.reverse();
      bytes += decoded.toString('latin1');
    }
    return bytes === '' ? undefined : bytes;
  };
}

/** Octal tokens: bytes of 3 digits (`od -b`), or little-endian 16-bit words of 6 (`od`'s default). */
function octalTokens(digits: 3 | 6): LineReader {
  return (body) => {
    let bytes = '';
    for (const token of tokens(body)) {
      if (token.length !== digits || !/^[0-7]+$/u.test(token)) break;
      const value = Number.parseInt(token, 8);
      if (value > (digits === 3 ? 0xff : 0xffff)) break;
      bytes += digits === 3 ? String.fromCharCode(value) : String.fromCharCode(value & 0xff, value >> 8);
    }
    return bytes === '' ? undefined : bytes;
  };
}

const characterEscapes: Record<string, number> = {
  '\\0': 0,
  '\\a': 7,
  '\\b': 8,
  '\\t': 9,
  '\\n': 10,
  '\\v': 11,
  '\\f': 12,
  '\\r': 13,
};

/** `od -c`: a cell of 4 columns per byte, the character, its C escape or 3 octal digits, right-aligned. */
const characterCells: LineReader = (body) => {
  let bytes = '';
  for (let at = 0; at + 4 <= body.length; at += 4) {
    const cell = body.slice(at, at + 4);
    if (/^ {3}[\x20-\x7e]$/u.test(cell)) bytes += cell[3];
    else if (/^ [0-3][0-7]{2}$/u.test(cell)) bytes += String.fromCharCode(Number.parseInt(cell, 8));
    else if (cell.startsWith('  ') && characterEscapes[cell.slice(2)] !== undefined)
      bytes += String.fromCharCode(characterEscapes[cell.slice(2)] as number);
    else return undefined;
  }
  return bytes === '' ? undefined : bytes;
};

const readers: readonly LineReader[] = [
  hexTokens(false),
  hexTokens(true),
  octalTokens(3),
  octalTokens(6),
  characterCells,
];

interface ParsedLine {
  offset: string | undefined;
  body: string;
  textStart: number;
  textEnd: number;
}

/** The byte count a line holds from its offset and the next one's, in the radix that fits: hex, octal or decimal. */
function bytesBetween(line: ParsedLine, next: ParsedLine | undefined, available: number): number {
  if (line.offset === undefined || next?.offset === undefined) return available;
  let best = -1;
  for (const radix of [16, 8, 10]) {
    const count = Number.parseInt(next.offset, radix) - Number.parseInt(line.offset, radix);
    if (count > 0 && count <= available && count > best) best = count;
  }
  return best;
}

/** Spans of `text` to hide: the lines of a dump showing bytes in which `find` finds something. */
export function dumpSpans(text: string, find: FindInBytes): Span[] {
  if (!mayHoldDump.test(text)) return [];
  const lines: ParsedLine[] = [];
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const match = dumpLine.exec(text.slice(start, end).replace(/\r$/u, ''));
    const offset = match?.[1];
    const body = match?.[2] ?? '';
    // An offset is followed by a blank (or is alone on the closing line); otherwise the digits were a token.
    const glued = offset !== undefined && body !== '' && !/^[ \t]/u.test(body);
    lines.push({ offset: glued ? undefined : offset, body: glued ? '' : body, textStart: start, textEnd: end });
    start = end + 1;
  }
  const spans: Span[] = [];
  for (const read of readers) collect(lines, read, find, spans);
  return spans;
}

/** Reads consecutive lines of one kind into one stream of bytes and hides the lines of each match. */
function collect(lines: readonly ParsedLine[], read: LineReader, find: FindInBytes, spans: Span[]): void {
  let stream = '';
  let block: ParsedLine[] = [];
  let starts: number[] = [];
  const close = () => {
    if (block.length > 0) {
      for (const [start, end] of find(stream)) {
        const first = block[lastAtOrBefore(starts, start)] as ParsedLine;
        const last = block[lastAtOrBefore(starts, end - 1)] as ParsedLine;
        spans.push([first.textStart, last.textEnd]);
      }
    }
    [stream, block, starts] = ['', [], []];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as ParsedLine;
    const bytes = read(line.body);
    // A line of bare tokens (`od -An`) must be all tokens: ordinary text is not read as data.
    if (bytes === undefined || (line.offset === undefined && !/^[ \t]*(?:[0-9A-Fa-f]+ ?)+$/u.test(line.body))) {
      close();
      continue;
    }
    const count = bytesBetween(line, lines[index + 1], bytes.length);
    block.push(line);
    starts.push(stream.length);
    // A count from the offsets drops an ASCII column read as tokens; a line whose offsets do not fit ends the block.
    stream += bytes.slice(0, count === -1 ? bytes.length : count);
    if (count === -1) close();
  }
  close();
}
