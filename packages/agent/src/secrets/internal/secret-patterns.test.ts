import { describe, expect, it } from 'vitest';
import { maskValues } from './mask-values.js';

const placeholder = '<secret-hidden>';
const mask = (text: string, values: string[]) => maskValues(text, values, placeholder);

const secrets = [
  'sekrit-value-8731',
  'ghp_A1b2C3d4E5f6G7h8I9j0',
  'pa ss/wo+rd&x=1?%',
  'clé-secrète-✓',
  'hunter',
  '0123456789abcdefXYZ',
];

/** Bytes around the secret, so it lands at every alignment of base64's 3-byte groups. */
const prefixes = ['', 'a', 'ab', 'abc', 'token=', 'Authorization: Basic '];
const suffixes = ['', 'z', 'yz', '\n', ' and more text after it'];

const base64Forms: Array<[string, (bytes: Buffer) => string]> = [
  ['standard', (bytes) => bytes.toString('base64')],
  ['standard unpadded', (bytes) => bytes.toString('base64').replace(/=+$/u, '')],
  ['url-safe', (bytes) => bytes.toString('base64url')],
  ['wrapped at 76 columns', (bytes) => bytes.toString('base64').replace(/.{76}/gu, '$&\n')],
];

/** Whether any decoding of what is left (at every start offset, both alphabets) still holds the secret. */
function recoverable(masked: string, secret: string): boolean {
  const wanted = Buffer.from(secret);
  for (const piece of masked.split(placeholder)) {
    const compact = piece.replace(/\s/gu, '');
    for (let shift = 0; shift < 4; shift += 1) {
      for (const alphabet of ['base64', 'base64url'] as const) {
        if (Buffer.from(compact.slice(shift), alphabet).includes(wanted)) return true;
      }
    }
  }
  return masked.includes(secret);
}

describe('maskValues on encoded secrets', () => {
  for (const secret of secrets) {
    for (const [name, encode] of base64Forms) {
      it(`hides ${JSON.stringify(secret)} in ${name} base64 at every alignment`, () => {
        for (const prefix of prefixes) {
          for (const suffix of suffixes) {
            const encoded = encode(Buffer.from(prefix + secret + suffix));
            const masked = mask(`out: ${encoded} end`, [secret]);
            expect(recoverable(masked, secret), `${prefix}|${suffix}: ${masked}`).toBe(false);
            // The run goes (any character of it left would give away bits of the value), nothing around it; of a
            // run wrapped over lines, the lines without a bit of the value may stay, whole.
            expect(masked.startsWith(`out: `) && masked.endsWith(' end'), masked).toBe(true);
            const lines = encoded.split('\n');
            const left = masked.slice(5, -4).split('\n');
            expect(
              left.every((line) => line.includes(placeholder) || lines.includes(line)),
              masked,
            ).toBe(true);
            if (!encoded.trimEnd().includes('\n'))
              expect(masked).toBe(`out: ${placeholder}${encoded.endsWith('\n') ? '\n' : ''} end`);
          }
        }
      });
    }

    it(`hides ${JSON.stringify(secret)} percent-encoded (component, form, URI, lower-case escapes)`, () => {
      const forms = [
        encodeURIComponent(secret),
        new URLSearchParams({ q: secret }).toString().slice(2),
        encodeURI(secret),
        encodeURIComponent(secret).replace(/%[0-9A-F]{2}/gu, (percent) => percent.toLowerCase()),
        [...Buffer.from(secret)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
      ];
      for (const form of forms) {
        const masked = mask(`https://example.invalid/?a=1&token=${form}&b=2`, [secret]);
        expect(masked, form).toBe(`https://example.invalid/?a=1&token=${placeholder}&b=2`);
      }
    });

    it(`hides ${JSON.stringify(secret)} in hex, lower and upper case, plain or wrapped`, () => {
      const hex = Buffer.from(secret).toString('hex');
      for (const form of [hex, hex.toUpperCase(), hex.replace(/.{8}/gu, '$&\n')]) {
        const masked = mask(`dump ${form} done`, [secret]);
        expect(masked, form).not.toContain(hex.slice(0, 6));
        expect(masked.toLowerCase()).not.toContain(hex.slice(-6));
      }
      // The whole hex run goes: its other bytes are part of the same datum.
      expect(mask(`bytes ff${hex}00 next`, [secret])).toBe(`bytes ${placeholder} next`);
    });
  }

  it('hides a value quoted in JSON', () => {
    const secret = 'p"w\\d\tx';
    expect(mask(JSON.stringify({ password: secret }), [secret])).toBe(`{"password":"${placeholder}"}`);
  });

  it('merges a literal and an encoded form that touch or overlap into one placeholder', () => {
    const secret = 'sekrit-value-8731';
    const b64 = Buffer.from(secret).toString('base64');
    expect(mask(`${secret}${b64}`, [secret])).toBe(placeholder);
    expect(mask(`${secret} ${b64}`, [secret])).toBe(`${placeholder} ${placeholder}`);
  });

  it('does not mask encoded forms of values under 3 bytes, nor text that merely resembles a value', () => {
    expect(mask('YWI= 6162 YWJ 61 ab', ['ab'])).toBe(`YWI= 6162 YWJ 61 ${placeholder}`);
    expect(mask('YWJj 616263 YWJjZA 61626364 abc', ['abc'])).toBe(
      `${placeholder} ${placeholder} ${placeholder} ${placeholder} ${placeholder}`,
    );
    const text = 'ordinary output: Build 42 passed in 3.1s, no errors, 0x1f warnings';
    expect(mask(text, ['sekrit-value-8731', 'ghp_A1b2C3d4E5f6G7h8I9j0'])).toBe(text);
  });
});
