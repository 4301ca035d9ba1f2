import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../tools/secrets.js';

const secret = 'sk-live-ABCDEF0123456789xyz';
const placeholder = '<secret-hidden>';

function hexOf(bytes: Buffer): string[] {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0'));
}

function offset(at: number, digits: number, radix: number): string {
  return at.toString(radix).padStart(digits, '0');
}

function ascii(bytes: Buffer): string {
  return [...bytes].map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
}

function rows(bytes: Buffer, width = 16): Buffer[] {
  const found: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += width) found.push(bytes.subarray(at, at + width));
  return found;
}

/** `xxd -g <group>` as xxd 9 prints it: hex groups in byte order, then the ASCII column. */
function xxd(bytes: Buffer, group = 2): string {
  const width = 16 * 2 + Math.ceil(16 / group) - 1;
  return rows(bytes)
    .map((row, index) => {
      const hex = hexOf(row);
      const groups: string[] = [];
      for (let at = 0; at < hex.length; at += group) groups.push(hex.slice(at, at + group).join(''));
      return `${offset(index * 16, 8, 16)}: ${groups.join(' ').padEnd(width)}  ${ascii(row)}`;
    })
    .join('\n');
}

/** `hexdump -C`: bytes in two halves, the ASCII column between bars, and the closing offset. */
function hexdumpCanonical(bytes: Buffer): string {
  const lines = rows(bytes).map((row, index) => {
    const hex = hexOf(row);
    const halves = `${hex.slice(0, 8).join(' ')}  ${hex.slice(8).join(' ')}`.trimEnd();
    return `${offset(index * 16, 8, 16)}  ${halves.padEnd(48)}  |${ascii(row)}|`;
  });
  return [...lines, offset(bytes.length, 8, 16)].join('\n');
}

/** `hexdump` without options: little-endian 16-bit words. */
function hexdumpWords(bytes: Buffer): string {
  const lines = rows(bytes).map((row, index) => {
    const words: string[] = [];
    for (let at = 0; at < row.length; at += 2) {
      words.push(offset((row[at] as number) | ((row[at + 1] ?? 0) << 8), 4, 16));
    }
    return `${offset(index * 16, 7, 16)} ${words.join(' ')}`;
  });
  return [...lines, offset(bytes.length, 7, 16)].join('\n');
}

function realOd(bytes: Buffer, args: string[]): string {
  const directory = mkdtempSync(join(tmpdir(), 'x-dump-'));
  const file = join(directory, 'data');
  writeFileSync(file, bytes);
  return execFileSync('od', [...args, file], { encoding: 'latin1', env: { LC_ALL: 'C' } });
}

/**
 * Payloads that put the value at different places in the rows: inside one row and across one or two row breaks,
 * ending at a row's end, after bytes a dump spells as escapes or octal (NUL, tab, 0xff, non-ASCII), twice.
 */
const payloads: Buffer[] = [
  Buffer.from(secret),
  Buffer.from(`token=${secret}\n`),
  Buffer.from(`${'x'.repeat(5)}${secret}, then more bytes after the row it ends`),
  Buffer.concat([Buffer.from([0xff, 0xff, 0x00, 0x09]), Buffer.from(`xxxx${secret}`)]),
  Buffer.from(`${'ä'.repeat(9)}${secret} and ${secret}`),
];

/** Where `needle` occurs in `bytes`. */
function occurrences(bytes: Buffer, needle: Buffer): number[] {
  const found: number[] = [];
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/**
 * The dump with the rows (16 bytes each) that show each occurrence of the value replaced by one placeholder; two
 * occurrences that share a row share a placeholder.
 */
function expectedMasking(output: string, payload: Buffer): string {
  const rows = output.split('\n');
  const ranges: [number, number][] = [];
  for (const at of occurrences(payload, Buffer.from(secret))) {
    const range: [number, number] = [Math.floor(at / 16), Math.floor((at + Buffer.byteLength(secret) - 1) / 16)];
    const last = ranges.at(-1);
    if (last !== undefined && range[0] <= last[1]) last[1] = range[1];
    else ranges.push(range);
  }
  let cursor = 0;
  const kept: string[] = [];
  for (const [first, last] of ranges) {
    kept.push(...rows.slice(cursor, first), placeholder);
    cursor = last + 1;
  }
  return [...kept, ...rows.slice(cursor)].join('\n');
}

const dumps: Record<string, (bytes: Buffer) => string> = {
  xxd: (bytes) => xxd(bytes),
  'xxd -g1': (bytes) => xxd(bytes, 1),
  'xxd -g8': (bytes) => xxd(bytes, 8),
  'xxd -u': (bytes) =>
    xxd(bytes).replace(/^([^ ]+ )(.{39})/gmu, (_m, head: string, hex: string) => head + hex.toUpperCase()),
  'hexdump -C': hexdumpCanonical,
  hexdump: hexdumpWords,
  'od -c': (bytes) => realOd(bytes, ['-c']),
  'od -b': (bytes) => realOd(bytes, ['-b']),
  'od -x': (bytes) => realOd(bytes, ['-x']),
  od: (bytes) => realOd(bytes, []),
  'od -t x4': (bytes) => realOd(bytes, ['-t', 'x4']),
  'od -A x -t x1z': (bytes) => realOd(bytes, ['-A', 'x', '-t', 'x1z']),
  'od -An -t x1': (bytes) => realOd(bytes, ['-An', '-t', 'x1']),
};

describe('a value in a hex or octal dump', () => {
  for (const [tool, dump] of Object.entries(dumps)) {
    it(`is hidden in ${tool} output, the rows that show it and only those`, () => {
      for (const payload of payloads) {
        const output = dump(payload);
        expect(maskSecrets(output, [secret]), `${tool} of ${JSON.stringify(payload.toString('latin1'))}`).toBe(
          expectedMasking(output, payload),
        );
        // The last row read up to the text's end, with no line break after it.
        const unended = output.trimEnd();
        expect(maskSecrets(unended, [secret])).toBe(expectedMasking(unended, payload));
      }
    });
  }

  it('hides a value shorter than a row, inside one row', () => {
    const short = 'pw-93jf-2kd';
    for (const [tool, dump] of Object.entries(dumps)) {
      const output = dump(Buffer.from(`${short}\n`));
      expect(maskSecrets(output, [short]), tool).toContain(placeholder);
    }
  });

  it('hides a base64 of the value dumped in hex', () => {
    const output = xxd(Buffer.from(`Authorization: Basic ${Buffer.from(`me:${secret}`).toString('base64')}\n`));
    expect(maskSecrets(output, [secret])).toContain(placeholder);
  });

  it('leaves a dump alone that does not hold the value, and text that only looks like one', () => {
    const other = xxd(Buffer.from(`token=sk-live-ABCDEF0123456789xyQ and more bytes here\n`));
    expect(maskSecrets(other, [secret])).toBe(other);
    const log = '7b9539d3 add beef to the cafe\n981308da dead code removed\n0000001 a line\n';
    expect(maskSecrets(log, [secret])).toBe(log);
  });

  it('hides only the rows that show the value, not the whole dump', () => {
    const bytes = Buffer.from(`${'-'.repeat(48)}${secret}${'-'.repeat(48)}`);
    const output = xxd(bytes);
    const masked = maskSecrets(output, [secret]);
    // The value is bytes 48 to 74: the rows at 0x30 and 0x40 show it, the others only dashes.
    const kept = output.split('\n').filter((line) => !/^000000[34]0/u.test(line));
    expect(masked.split('\n')).toEqual([...kept.slice(0, 3), placeholder, ...kept.slice(3)]);
  });
});
