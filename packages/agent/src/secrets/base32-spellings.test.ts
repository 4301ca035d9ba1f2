import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../tools/secrets.js';

const secret = 'ghp_plainAsciiToken0123';
const placeholder = '<secret-hidden>';

/** coreutils' `base32`, the encoder a command line reaches for besides `base64`. */
function base32(data: string, ...args: string[]): string {
  return execFileSync('base32', args, { input: data, encoding: 'latin1', env: { LC_ALL: 'C' } });
}

/** What is left of the value once masked: the base32 runs still in the text, decoded. */
function decodedRuns(text: string): string {
  return (text.match(/[A-Z2-7=\n]{8,}/gu) ?? []).map((run) => base32Decode(run.replace(/[\n=]/gu, ''))).join('|');
}

function base32Decode(run: string): string {
  let bits = '';
  for (const character of run)
    bits += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(character).toString(2).padStart(5, '0');
  return Buffer.from((bits.match(/.{8}/gu) ?? []).map((byte) => Number.parseInt(byte, 2))).toString('latin1');
}

describe('a value in base32', () => {
  it('is hidden at every alignment of its bytes in the encoded data, padded or wrapped', () => {
    for (const prefix of ['', 'u', 'us', 'use', 'user', 'user:']) {
      for (const output of [base32(`${prefix}${secret}\n`), base32(`${prefix}${secret}`, '-w', '0')]) {
        const masked = maskSecrets(`token: ${output}`, [secret]);
        expect(masked, output).toContain(placeholder);
        expect(decodedRuns(masked)).not.toContain(secret);
      }
    }
  });

  it('is hidden on the wrapped lines that carry it, and the others stay', () => {
    const output = base32(`${'a'.repeat(100)}${secret}${'b'.repeat(100)}`);
    const lines = output.trimEnd().split('\n');
    const masked = maskSecrets(output, [secret]).trimEnd().split('\n');
    expect(masked[0]).toBe(lines[0]);
    expect(masked.at(-1)).toBe(lines.at(-1));
    expect(masked).toContain(placeholder);
    expect(decodedRuns(masked.join('\n'))).not.toContain(secret);
  });

  it('is hidden encoded twice: the base32 of its base64', () => {
    const masked = maskSecrets(base32(Buffer.from(`user:${secret}`).toString('base64')), [secret]);
    expect(masked).toContain(placeholder);
  });

  it('leaves base32 alone that does not hold the value, and upper-case words', () => {
    const other = base32(`user:${secret.slice(0, -1)}X`);
    expect(maskSecrets(other, [secret])).toBe(other);
    const shouting = 'WARNING: DISK QUOTA EXCEEDED ON VOLUME ABCDEFGHIJKLMNOPQRSTUVWXYZ234567\n';
    expect(maskSecrets(shouting, [secret])).toBe(shouting);
  });
});
