import { runSeparatorLength, scanRuns } from './encoded-runs.js';

/** A span of text, `[start, end)`. */
export type Span = [number, number];

/** Finds the spans to hide in decoded bytes (held one byte per character, latin1). */
export type FindInBytes = (bytes: string) => Span[];

/** An encoding whose runs are decoded and searched. */
export interface RunEncoding {
  name: 'base64' | 'hex' | 'base32';
  /** Bits per character. */
  bits: number;
  /** Characters per group of whole bytes: where the data starts inside a run is only known modulo this. */
  group: number;
  /**
   * `runSeparatorLength` characters that hold a whole zero byte at every alignment: between two runs, so that no
   * match and no run in the decoded bytes joins them.
   */
  separator: string;
  /** The bytes (latin1) of a stream of the encoding's characters; a trailing partial byte is dropped. */
  decode: (characters: string) => string;
}

/** Each base32 character's 5 bits by its code (RFC 4648: `A`-`Z` are 0-25, `2`-`7` are 26-31). */
const base32Values = new Uint8Array(128);
for (const [index, character] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'].entries()) {
  base32Values[character.charCodeAt(0)] = index;
}

/** RFC 4648 base32 (`base32`, `basenc --base32`), which Node's Buffer does not decode. */
function decodeBase32(characters: string): string {
  const bytes = new Uint8Array(Math.floor((characters.length * 5) / 8));
  let length = 0;
  let bits = 0;
  let held = 0;
  for (let index = 0; index < characters.length; index++) {
    held = ((held << 5) | (base32Values[characters.charCodeAt(index) & 0x7f] as number)) & 0x1fff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[length++] = held >> bits;
    }
  }
  return Buffer.from(bytes.buffer, 0, length).toString('latin1');
}

export const encodings: readonly RunEncoding[] = [
  {
    name: 'base64',
    bits: 6,
    group: 4,
    separator: 'A'.repeat(runSeparatorLength),
    decode: (characters) => Buffer.from(characters, 'base64').toString('latin1'),
  },
  {
    name: 'hex',
    bits: 4,
    group: 2,
    separator: '0'.repeat(runSeparatorLength),
    decode: (characters) => Buffer.from(characters, 'hex').toString('latin1'),
  },
  { name: 'base32', bits: 5, group: 8, separator: 'A'.repeat(runSeparatorLength), decode: decodeBase32 },
];

/**
 * The shortest decoded data a run starts from: a value must have 3 bytes or more to be found in bytes. Runs are
 * joined from stretches of this many bytes' characters (see `scanRuns`), whatever the values.
 */
const minimumBytes = 3;

/**
 * The fewest characters of `encoding` that hold `bytes` whole bytes, at the best alignment: the bytes' first bit at
 * the start of a character (base64 of n bytes at a bit offset of 2 or 4 inside its first character needs one more
 * character when 8n + 2 or 8n + 4 crosses a multiple of 6). Every start offset is decoded, so the best alignment
 * occurs: a shorter run cannot hold a value of `bytes` bytes, nor any form of it (none is shorter than its UTF-8).
 */
export function shortestRunHolding(bytes: number, encoding: RunEncoding): number {
  return Math.ceil((bytes * 8) / encoding.bits);
}

/**
 * The runs of `encoding` in `text` whose decoded bytes hold something `find` hides (`shortestBytes` long or more: a
 * secret value, one of its other
 * forms, or a further encoded run holding one), each whole: a run is one encoded datum, and any part of it left
 * visible gives away bits of the value. What precedes the data inside a run is unknown (`Basic` glued to it, a
 * `token` prefix, a value at any byte of `user:password`), so every start offset modulo the group is tried. A run
 * wrapped over several lines is hidden from the first to the last line that carries a bit of what was found: the
 * other lines hold none of its bits, and a run joined over a line break may take in the next line's first word
 * (`...dXNl\nHOME=/root` in `env` output).
 *
 * All runs are laid end to end in one stream, a separator between them, and the stream is decoded once per start
 * offset (4 for base64, 2 for hex): one `find` per offset over all runs' bytes, so the work stays linear in the text
 * however many small runs (words) it has. A match counts only if all its bytes come from one run's characters.
 */
export function decodedRunSpans(
  text: string,
  options: { encoding: RunEncoding; find: FindInBytes; shortestBytes: number },
): Span[] {
  const { encoding, find } = options;
  const runs = scanRuns(text, {
    encoding: encoding.name,
    minimumChars: shortestRunHolding(minimumBytes, encoding),
    minimumData: shortestRunHolding(options.shortestBytes, encoding),
  });
  if (runs.textStarts.length === 0) return [];
  // A separator before the first run too: a value whose first bit is inside a run's first character (a run cut at
  // the start) is decoded from a group that starts before the run, and every run must have such a group.
  const stream = encoding.separator + runs.data.join(encoding.separator) + encoding.separator;
  const spans: Span[] = [];
  for (let offset = 0; offset < encoding.group; offset++) {
    const decoded = encoding.decode(offset === 0 ? stream : stream.slice(offset));
    for (const [start, end] of find(decoded)) {
      /** The characters holding the first and the last bit of the match, in the stream `runs` describe. */
      const first = offset + Math.floor((start * 8) / encoding.bits) - runSeparatorLength;
      const last = offset + Math.floor((end * 8 - 1) / encoding.bits) - runSeparatorLength;
      const run = lastAtOrBefore(runs.streamStarts, first);
      if (first < (runs.streamStarts[run] as number) || last >= (runs.streamEnds[run] as number)) continue;
      const firstLine = lastAtOrBefore(runs.lineStreamStarts, first);
      const lastLine = lastAtOrBefore(runs.lineStreamStarts, last);
      spans.push([runs.lineTextStarts[firstLine] as number, runs.lineTextEnds[lastLine] as number]);
    }
  }
  return spans;
}

/** The index of the last of `starts` (ascending) at or before `position`. */
export function lastAtOrBefore(starts: readonly number[], position: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}
