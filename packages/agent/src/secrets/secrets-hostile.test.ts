import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../tools/secrets.js';

/**
 * The encodings "What masking promises" lists, each spelled by the encoders that exist in the wild, for values
 * with the characters that change an encoding (`&`, `/`, `+`, `=`, quotes, backslashes, non-ASCII, astral).
 */
const values = [
  'ghp_plainAsciiToken0123',
  'pa&ss<wo>rd-123',
  'abc/def+ghi==XYZ',
  'pässwörd-ünïcode',
  'se"cr\\et-value',
  'key-🔑-value-1',
  'with space and+plus',
  'line\nbreak\ttab',
];

function utf16Escapes(text: string, upper = false): string {
  const escaped = JSON.stringify(text)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]/gu, (char) =>
      [...Array(char.length).keys()]
        .map((index) => `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`)
        .join(''),
    );
  return upper ? escaped.replace(/\\u([0-9a-f]{4})/gu, (_match, hex: string) => `\\u${hex.toUpperCase()}`) : escaped;
}

function hexBytes(text: string): string[] {
  return Buffer.from(text, 'utf8').toString('hex').match(/../gu) ?? [];
}

/** Every spelling of `value` the README promises to hide. */
function spellings(value: string): Record<string, string> {
  const base64 = Buffer.from(value).toString('base64');
  return {
    literal: value,
    'base64 padded': base64,
    'base64 unpadded': base64.replace(/=+$/u, ''),
    'base64 URL-safe': Buffer.from(value).toString('base64url'),
    'base64 wrapped at 4': (base64.match(/.{1,4}/gu) ?? []).join('\n'),
    'base64 wrapped CRLF': (base64.match(/.{1,5}/gu) ?? []).join('\r\n'),
    encodeURIComponent: encodeURIComponent(value),
    encodeURI: encodeURI(value),
    'form encoding': new URLSearchParams({ v: value }).toString().slice(2),
    'lowercase escapes': encodeURIComponent(value).replace(/%[0-9A-F]{2}/gu, (encoded) => encoded.toLowerCase()),
    'every byte escaped': hexBytes(value)
      .map((pair) => `%${pair}`)
      .join(''),
    'hex lower': hexBytes(value).join(''),
    'hex upper': hexBytes(value).join('').toUpperCase(),
    'hex colon': hexBytes(value).join(':'),
    'hex space': hexBytes(value).join(' '),
    'hex \\x': hexBytes(value)
      .map((pair) => `\\x${pair}`)
      .join(''),
    'hex 0x list': hexBytes(value)
      .map((pair) => `0x${pair}`)
      .join(', '),
    'xxd -p wrapped': hexBytes(value)
      .join('')
      .replace(/(.{6})/gu, '$1\n'),
    'JSON.stringify': JSON.stringify(value).slice(1, -1),
    'JSON ensure_ascii (Python)': utf16Escapes(value),
    'JSON ensure_ascii upper hex': utf16Escapes(value, true),
    'JSON HTML-safe (Go)': JSON.stringify(value)
      .slice(1, -1)
      .replace(/[<>&]/gu, (char) => `\\u00${char.charCodeAt(0).toString(16)}`),
    'JSON escaped slash (PHP)': JSON.stringify(value).slice(1, -1).replaceAll('/', '\\/'),
    'JSON every char \\u': [...value]
      .map((char) =>
        [...Array(char.length).keys()]
          .map((index) => `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`)
          .join(''),
      )
      .join(''),
  };
}

describe('maskSecrets against every promised spelling', () => {
  it('hides each spelling of each value, alone and inside longer text', () => {
    const leaks: string[] = [];
    for (const value of values) {
      for (const [form, spelled] of Object.entries(spellings(value))) {
        for (const text of [spelled, `prefix ${spelled} suffix`, `{"token":"${spelled}"}`]) {
          const masked = maskSecrets(text, [value]);
          if (masked.includes(spelled) || !masked.includes('<secret-hidden>')) {
            leaks.push(`${JSON.stringify(value)} as ${form}: ${JSON.stringify(masked)}`);
          }
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('hides a value embedded in longer base64 data at every byte alignment', () => {
    const value = 'ghp_plainAsciiToken0123';
    for (const prefix of ['', 'u', 'us', 'user:', 'user:x']) {
      const encoded = Buffer.from(`${prefix}${value}\n`).toString('base64');
      const masked = maskSecrets(`Authorization: Basic ${encoded}`, [value]);
      expect({ prefix, decodedHasValue: Buffer.from(masked.slice(21), 'base64').toString().includes(value) }).toEqual({
        prefix,
        decodedHasValue: false,
      });
    }
  });

  it('leaves text alone that only shares characters or a short run with a value', () => {
    const value = 'pa&ss<wo>rd-123';
    for (const text of ['pa&ss', 'wo>rd', 'pa\\u0026', '0x70, 0x61', 'password-123', 'PA&SS<WO>RD-123']) {
      expect(maskSecrets(text, [value])).toBe(text);
    }
  });
});
