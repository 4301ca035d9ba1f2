import { describe, expect, it } from 'vitest';
import { maskValues } from './mask-values.js';
import { terminalView } from './terminal-view.js';

const placeholder = '<secret-hidden>';
const mask = (text: string, values: string[]) => maskValues(text, values, placeholder);

const value = 'ghp_A1b2C3d4E5f6';
/** `value` with `insert` between each two of its characters. */
const interleaved = (insert: string) => [...value].join(insert);

describe('a value broken up by terminal control codes', () => {
  it('hides the whole span, codes included, whatever control is inserted between the characters', () => {
    const inserts = {
      'SGR colour': '\x1b[31m',
      'SGR reset': '\x1b[0m',
      'SGR with many parameters': '\x1b[38;5;196;1m',
      'erase in line (grep)': '\x1b[K',
      'cursor forward': '\x1b[1C',
      'C1 CSI': '\x9b1m',
      'OSC title ended by BEL': '\x1b]0;title\x07',
      'OSC ended by ST': '\x1b]2;title\x1b\\',
      'charset designation': '\x1b(B',
      'zero-width space': '\u200b',
      'zero-width joiner': '\u200d',
      'word joiner': '\u2060',
      BOM: '\ufeff',
      'soft hyphen': '\u00ad',
      'left-to-right mark': '\u200e',
      bell: '\x07',
      NUL: '\x00',
      'carriage return': '\r',
    };
    for (const [name, insert] of Object.entries(inserts)) {
      expect(mask(`token: ${interleaved(insert)}\x1b[0m end`, [value]), name).toBe(`token: ${placeholder}\x1b[0m end`);
    }
  });

  it('hides a value that grep --color=always highlights in part', () => {
    const highlighted = `${value.slice(0, 4)}\x1b[01;31m\x1b[K${value.slice(4, 9)}\x1b[m\x1b[K${value.slice(9)}`;
    expect(mask(`config.env:3:TOKEN=${highlighted}`, [value])).toBe(`config.env:3:TOKEN=${placeholder}`);
  });

  it('hides a value written as a backspace overstrike (man pages: bold, underline)', () => {
    const bold = [...value].map((char) => `${char}\b${char}`).join('');
    const underlined = [...value].map((char) => `_\b${char}`).join('');
    expect(mask(`bold ${bold} end`, [value])).toBe(`bold ${placeholder} end`);
    expect(mask(`underlined ${underlined} end`, [value])).toBe(`underlined ${placeholder} end`);
  });

  it('hides encoded forms with codes inside them too', () => {
    const base64 = Buffer.from(`user:${value}`).toString('base64');
    const coloured = `${base64.slice(0, 10)}\x1b[1;32m${base64.slice(10, 20)}\x1b[0m${base64.slice(20)}`;
    expect(mask(`Authorization: Basic ${coloured}`, [value])).toBe(`Authorization: Basic ${placeholder}`);
    const slashed = 'ab/cd-ef-gh';
    const escaped = encodeURIComponent(slashed).replace('%2F', '%2\u200bF');
    expect(mask(`?q=${escaped}&r=1`, [slashed])).toBe(`?q=${placeholder}&r=1`);
  });

  it('still hides a value written inside a control sequence (a hyperlink target)', () => {
    const link = `\x1b]8;;https://example.invalid/?token=${value}\x1b\\click\x1b]8;;\x1b\\`;
    expect(mask(link, [value])).not.toContain(value);
  });

  it('leaves coloured text without a value as it is', () => {
    const text = `\x1b[32mok\x1b[0m ${value.slice(0, 8)}\x1b[31m-\x1b[0m${value.slice(8)}`;
    expect(mask(text, [value])).toBe(text);
  });
});

describe('terminalView', () => {
  it('is undefined for text without controls (CRLF line ends included)', () => {
    expect(terminalView('plain text\r\nwith tabs\tand lines\n')).toBeUndefined();
  });

  it('maps each kept character back to where it was', () => {
    const view = terminalView('a\x1b[31mb\u200bc\r\n');
    expect(view?.text).toBe('abc\r\n');
    expect([...(view?.origins ?? [])]).toEqual([0, 6, 8, 9, 10]);
  });
});
