import { describe, expect, it } from 'vitest';
import { scanRuns } from './encoded-runs.js';

const base64 = (text: string) => scanRuns(text, { encoding: 'base64', minimumChars: 4 });
const hex = (text: string) => scanRuns(text, { encoding: 'hex', minimumChars: 6 });
/** Each run as its text span and its data. */
const runsOf = (runs: ReturnType<typeof base64>, text: string) =>
  runs.data.map((data, index) => ({
    text: text.slice(runs.textStarts[index], runs.textEnds[index]),
    data,
  }));

describe('scanRuns', () => {
  it('finds a run of many megabytes in one piece (no regular expression stack overflow)', () => {
    const long = 'ab'.repeat(6_000_000);
    expect(base64(long).data.map((data) => data.length)).toEqual([long.length]);
    expect(hex(long).data.map((data) => data.length)).toEqual([long.length]);
  });

  it('takes runs of the minimum length and more, and skips shorter stretches', () => {
    const text = 'a bc def ghij klmnopq';
    expect(runsOf(base64(text), text)).toEqual([
      { text: 'ghij', data: 'ghij' },
      { text: 'klmnopq', data: 'klmnopq' },
    ]);
    expect(runsOf(hex('abcde abcdef 0123456789'), 'abcde abcdef 0123456789').map((run) => run.data)).toEqual([
      'abcdef',
      '0123456789',
    ]);
  });

  it('joins lines (LF, CRLF, JSON \\n and \\r\\n) followed by more data, one line per piece', () => {
    const text = 'x AAAA\nBB\r\nCC\\nDD\\r\\nEE= y';
    const runs = base64(text);
    expect(runsOf(runs, text)).toEqual([{ text: 'AAAA\nBB\r\nCC\\nDD\\r\\nEE=', data: 'AAAABBCCDDEE' }]);
    expect(runs.lineStreamStarts).toEqual([0, 4, 6, 8, 10]);
    expect(runs.lineTextStarts.map((start, index) => text.slice(start, runs.lineTextEnds[index]))).toEqual([
      'AAAA',
      'BB',
      'CC',
      'DD',
      'EE=',
    ]);
  });

  it('ends a run at a line break followed by something else, and at a blank line', () => {
    const text = 'AAAA\n\nBBBB\n CCCC';
    expect(runsOf(base64(text), text).map((run) => run.text)).toEqual(['AAAA', 'BBBB', 'CCCC']);
  });

  it('reads %2B, %2F (either case) and \\/ as base64 data, before, inside and after a run', () => {
    const text = 'q=%2Fab%2bcdef%2F\\/gh%3D%3d&r';
    expect(runsOf(base64(text), text)).toEqual([{ text: '%2Fab%2bcdef%2F\\/gh%3D%3d', data: '/ab+cdef//gh' }]);
    // At the very start of the text too.
    expect(base64('%2Fabcdef').data).toEqual(['/abcdef']);
    const leading = 'q=%2Fa%2Bbcdefg&r';
    expect(runsOf(base64(leading), leading)).toEqual([{ text: '%2Fa%2Bbcdefg', data: '/a+bcdefg' }]);
    // Hex has no escapes.
    expect(hex('abc%2Fdef').data).toEqual([]);
  });

  it('takes in at most two = of padding, written or escaped', () => {
    const text = 'YWJjZA=== ok';
    expect(runsOf(base64(text), text)).toEqual([{ text: 'YWJjZA==', data: 'YWJjZA' }]);
  });

  it('lays runs end to end in the stream, 4 characters apart', () => {
    const runs = base64('AAAA BBBBBB CCCC');
    expect([runs.streamStarts, runs.streamEnds]).toEqual([
      [0, 8, 18],
      [4, 14, 22],
    ]);
  });
});
