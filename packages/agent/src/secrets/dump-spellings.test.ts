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

/** Payloads that put the value at different places in the rows: inside one row, across one or two row breaks. */
const payloads = [
  secret,
  `token=${secret}\n`,
  `${'x'.repeat(13)}${secret}!`,
  `${'ä'.repeat(9)}${secret} and ${secret}`,
];

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
    it(`is hidden in ${tool} output wherever it falls in the rows`, () => {
      for (const payload of payloads) {
        const output = dump(Buffer.from(payload, 'utf8'));
        const masked = maskSecrets(output, [secret]);
        expect(masked, `${tool} of ${JSON.stringify(payload)}`).toContain(placeholder);
        // No row that shows a byte of the value is left: its hex, and its piece in the ASCII column, are gone.
        const hexOfValue = hexOf(Buffer.from(secret)).join('');
        const left = masked.split(placeholder).join('\n');
        expect(hexOf(Buffer.from(left.replace(/[^0-9a-f]/giu, ''), 'hex')).join('')).not.toContain(hexOfValue);
        expect(left).not.toMatch(/ABCDEF0|23456789/u);
      }
    });
  }

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
