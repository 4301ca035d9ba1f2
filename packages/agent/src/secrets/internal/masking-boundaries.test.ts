// The boundaries of masking's fast paths: decoded runs are only those long enough to hold the shortest value, and a
// value's forms are looked for only where a screen of its first characters matches. Each test sits at the edge.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { maskValues } from './mask-values.js';

const placeholder = '<secret-hidden>';
const mask = (text: string, values: string[]) => maskValues(text, values, placeholder);

/** Deterministic bytes that look random (a SHA-256 chain). */
function noise(length: number, seed = 'noise'): Buffer {
  const blocks: Buffer[] = [];
  let block = createHash('sha256').update(seed).digest();
  for (let total = 0; total < length; total += block.length) {
    blocks.push(block);
    block = createHash('sha256').update(block).digest();
  }
  return Buffer.concat(blocks).subarray(0, length);
}

/**
 * The base64 characters that carry a bit of `value` when `before` bytes precede it: the shortest run that holds it
 * at that alignment (its first bit at bit 0, 2 or 4 of the run's first character).
 */
function shortestBase64Run(value: string, before: number): string {
  const bytes = Buffer.concat([noise(before, 'before'), Buffer.from(value)]);
  const encoded = bytes.toString('base64').replace(/=+$/u, '');
  const first = Math.floor((before * 8) / 6);
  const last = Math.floor(((before + Buffer.byteLength(value)) * 8 - 1) / 6);
  return encoded.slice(first, last + 1);
}

describe('decoded runs: the shortest run that can hold a value', () => {
  it('hides a run exactly as long as the value needs, at each alignment, alone or after another run', () => {
    for (const value of ['k3y', 'sekrit', 'p4ssw0rd', 'correct horse']) {
      const bytes = Buffer.byteLength(value);
      for (const before of [0, 1, 2]) {
        const run = shortestBase64Run(value, before);
        // 4n/3 characters at the best alignment, one more where the first bit is not a character's first.
        expect(run.length, `${value} at ${before}`).toBe(Math.ceil((8 * bytes + ((8 * before) % 6)) / 6));
        for (const text of [`${run}`, `x ${run} y`, `QUJD ${run}`, `${noise(6).toString('base64')} ${run}`]) {
          expect(mask(text, [value]), `${value} at ${before} in ${text}`).toBe(text.replace(run, placeholder));
        }
      }
    }
  });

  it('finds the shortest run by the shortest value when several are registered', () => {
    const short = 'k3y';
    const long = 'a-much-longer-secret-value';
    const run = shortestBase64Run(short, 0);
    expect(run).toHaveLength(4);
    expect(mask(`auth ${run} done`, [long, short])).toBe(`auth ${placeholder} done`);
    expect(mask(`auth ${run} done`, [short, long])).toBe(`auth ${placeholder} done`);
  });

  it('hides a value at every byte offset inside a longer run, whatever is glued before the run', () => {
    const value = 'tok-9Zq';
    for (let before = 0; before < 6; before++) {
      for (const glued of ['', 'a', 'ab', 'abc']) {
        const run = `${glued}${Buffer.concat([noise(before), Buffer.from(value), noise(5)]).toString('base64')}`;
        expect(mask(`[${run}]`, [value]), `${before} bytes, ${glued.length} glued`).toBe(`[${placeholder}]`);
      }
    }
  });

  it('hides a hex run of exactly two digits per byte of a 3-byte value (too short for the hex form)', () => {
    const value = 'k3y';
    const run = Buffer.from(value).toString('hex');
    expect(run).toHaveLength(6);
    expect(mask(`id ${run} end`, [value])).toBe(`id ${placeholder} end`);
    expect(mask(`id f${run}0 end`, [value])).toBe(`id ${placeholder} end`);
    expect(mask(`id 0${run} end`, [value, 'another-long-value'])).toBe(`id ${placeholder} end`);
  });

  it('leaves a run one character short of the value alone', () => {
    const value = 'sekrit';
    const run = shortestBase64Run(value, 0).slice(0, -1);
    expect(mask(`x ${run} y`, [value])).toBe(`x ${run} y`);
  });

  it('finds a long run after short ones that are passed over, joined over lines and escapes as before', () => {
    const value = 'p?ss>w??rd>>>';
    const encoded = Buffer.from(`x:${value}`).toString('base64');
    const wrapped = encodeURIComponent(encoded).replace(/.{5}(?=.)/gu, '$&\n');
    const text = `abcd efgh= ab%2Fcd\n${wrapped}\nHOME=/root`;
    const masked = mask(text, [value]);
    expect(masked.startsWith('abcd efgh= ab%2Fcd\n')).toBe(true);
    expect(masked.endsWith('\nHOME=/root')).toBe(true);
    expect(masked).not.toContain(encodeURIComponent(encoded).slice(8, 16));
  });
});

describe('the screen of first characters', () => {
  it('hides a value split across a fold at any place, with LF or CRLF', () => {
    const value = 'ghp_A1b2C3d4E5f6G7h8';
    for (let at = 1; at < value.length; at++) {
      for (const lineBreak of ['\n', '\r\n']) {
        const folded = `${value.slice(0, at)}${lineBreak}${value.slice(at)}`;
        expect(mask(`token=${folded}.`, [value]), `${at} ${JSON.stringify(lineBreak)}`).toBe(`token=${placeholder}.`);
      }
    }
  });

  it('hides forms that differ from the literal only after the first 8 characters, and vice versa', () => {
    const value = 'abcdefgh/i j&k"l';
    const forms = [
      `abcdefgh${encodeURIComponent('/i j&k"l')}`,
      encodeURIComponent(value),
      JSON.stringify(value).slice(1, -1),
      `\\u0061\\u0062${JSON.stringify(value).slice(3, -1)}`,
      Buffer.from(value).toString('hex'),
      [...Buffer.from(value)].map((byte) => `0x${byte.toString(16)}`).join(', '),
    ];
    for (const form of forms) expect(mask(`<${form}>`, [value]), form).toBe(`<${placeholder}>`);
    expect(mask(`<${value.slice(0, 12)}>`, [value])).toBe(`<${value.slice(0, 12)}>`);
  });

  it('hides each of many values, whichever screen holds it', () => {
    // About 14 such values fill one screen: these take two, the second one partly.
    const values = Array.from(
      { length: 24 },
      (_, index) => `secret-${index}-${noise(12, `v${index}`).toString('hex')}`,
    );
    for (const value of values) expect(mask(`a ${value} b`, values), value).toBe(`a ${placeholder} b`);
    for (const value of [values[0], values[13], values[14], values[23]] as string[]) {
      expect(mask(`a ${Buffer.from(`u:${value}`).toString('base64')} b`, values), value).toBe(`a ${placeholder} b`);
    }
    expect(mask('a value-less text b', values)).toBe('a value-less text b');
  });
});
