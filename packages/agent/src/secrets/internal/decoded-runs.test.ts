import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { maskValues } from './mask-values.js';

const placeholder = '<secret-hidden>';
const mask = (text: string, values: string[]) => maskValues(text, values, placeholder);

const basic = (user: string, password: string) => Buffer.from(`${user}:${password}`).toString('base64');

/** Deterministic bytes that look random (a SHA-256 chain): innocent data for the tests that nothing is hidden. */
function noise(length: number): Buffer {
  const blocks: Buffer[] = [];
  let block = createHash('sha256').update('noise').digest();
  for (let total = 0; total < length; total += block.length) {
    blocks.push(block);
    block = createHash('sha256').update(block).digest();
  }
  return Buffer.concat(blocks).subarray(0, length);
}

describe('base64 runs holding a value', () => {
  it('hides HTTP Basic credentials whole, whatever the password length and the user before it', () => {
    for (const password of ['abc', 'hunt', 'hunter2', 'correct horse battery staple', 'pässwörd']) {
      for (const user of ['u', 'us', 'usr', 'alice', 'a-much-longer-user-name']) {
        const header = `Authorization: Basic ${basic(user, password)}\r\nHost: x`;
        expect(mask(header, [password]), `${user}:${password}`).toBe(`Authorization: Basic ${placeholder}\r\nHost: x`);
      }
    }
  });

  it('hides the run in either alphabet, padded or not, wrapped, percent-escaped or with JSON-escaped slashes', () => {
    const value = 'p?ss>w??rd>>>';
    const data = Buffer.from(`x:${value}`);
    const standard = data.toString('base64');
    expect([standard.includes('+'), standard.includes('/')]).toEqual([true, true]);
    const forms = {
      standard,
      unpadded: standard.replace(/=+$/u, ''),
      urlSafe: data.toString('base64url'),
      wrapped: standard.replace(/.{4}(?=.)/gu, '$&\n'),
      wrappedCrlf: standard.replace(/.{4}(?=.)/gu, '$&\r\n'),
      percentEscaped: encodeURIComponent(standard),
      jsonSlashes: standard.replaceAll('/', '\\/'),
      jsonWrapped: standard.replace(/.{4}(?=.)/gu, '$&\\n'),
    };
    for (const [name, form] of Object.entries(forms)) {
      expect(mask(`"${form}"`, [value]), name).toBe(`"${placeholder}"`);
    }
    // A run that starts with escaped characters (`%2B%2F...`) is hidden from its first one.
    const leading = encodeURIComponent(Buffer.concat([Buffer.from([0xfb, 0xff]), data]).toString('base64'));
    expect(leading.startsWith('%2B%2F')).toBe(true);
    expect(mask(`?auth=${leading}&next=1`, [value])).toBe(`?auth=${placeholder}&next=1`);
  });

  it('hides the lines of a wrapped run that carry bits of the value, and no line after the run', () => {
    const value = 'sekrit-value-8731';
    const data = Buffer.concat([noise(300), Buffer.from(value), noise(300)]).toString('base64');
    const lines: string[] = data.match(/.{1,76}/gu) ?? [];
    const masked = mask(`${lines.join('\n')}\nHOME=/root`, [value]);
    expect(masked).toContain(placeholder);
    expect(masked.endsWith('\nHOME=/root')).toBe(true);
    // The lines before and after the value's stay whole; what is hidden holds every bit of the value.
    const kept = masked.split('\n').filter((line) => !line.includes(placeholder));
    expect(kept.every((line) => line === 'HOME=/root' || lines.includes(line))).toBe(true);
    expect(kept.length).toBeGreaterThan(lines.length / 2);
    const start = Math.floor((300 * 8) / 6 / 76);
    const end = Math.floor(((300 + value.length) * 8) / 6 / 76);
    for (const line of lines.slice(start, end + 1)) expect(kept).not.toContain(line);
  });

  it('hides a run that starts with characters of something else glued to it', () => {
    const value = 'sekrit-value';
    for (const glued of ['a', 'ab', 'abc', 'Basic', 'example.com/api/v1/']) {
      const run = `${glued}${Buffer.from(`x${value}y`).toString('base64')}`;
      const masked = mask(`see ${run} here`, [value]);
      expect(masked, glued).not.toContain(Buffer.from(`x${value}y`).toString('base64').slice(4, -4));
      expect(masked, glued).toContain(placeholder);
    }
  });

  it('hides a value encoded twice, or encoded in a form inside base64', () => {
    const value = 'p@ss w0rd&more';
    const base64 = (text: string) => Buffer.from(text).toString('base64');
    const forms = {
      'base64 of base64': base64(base64(value)),
      'hex of base64': Buffer.from(base64(`u:${value}`)).toString('hex'),
      'base64 of hex': base64(Buffer.from(value).toString('hex')),
      'base64 of a percent-encoded value': base64(`user:${encodeURIComponent(value)}`),
      'base64 of JSON with \\u escapes': base64(`{"auth":"${value.replace('&', '\\u0026')}"}`),
      'Docker config (base64 of JSON of base64)': base64(
        JSON.stringify({ auths: { r: { auth: basic('me', value) } } }),
      ),
    };
    for (const [name, form] of Object.entries(forms)) {
      expect(mask(`value: ${form}`, [value]), name).toBe(`value: ${placeholder}`);
    }
  });

  it('leaves innocent base64 and hex alone, short or long', () => {
    const values = ['hunter2-the-password', 'ghp_A1b2C3d4E5f6G7h8I9j0', 'sekrit'];
    const innocent = [
      noise(3 * 1024).toString('base64'),
      noise(3 * 1024)
        .toString('base64')
        .replace(/.{76}/gu, '$&\n'),
      noise(2048).toString('hex'),
      Buffer.from('user:not-the-password').toString('base64'),
      'commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 Merge branch',
      'ordinary output: Build 42 passed in 3.1s, no errors, /usr/lib/x86_64-linux-gnu/libc.so.6',
    ];
    for (const text of innocent) expect(mask(text, values)).toBe(text);
  });

  it('hides only the run that holds the value among many', () => {
    const value = 'the-real-token';
    const others = Array.from({ length: 50 }, (_, index) => basic(`user${index}`, `other-token-${index}`));
    const text = [...others.slice(0, 25), basic('me', value), ...others.slice(25)].join(' ');
    expect(mask(text, [value])).toBe([...others.slice(0, 25), placeholder, ...others.slice(25)].join(' '));
  });
});
