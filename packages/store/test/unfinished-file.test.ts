import { describe, expect, it } from 'vitest';
import { isUnfinishedCopy } from '../src/event-log/unfinished-file.js';

// What a crash can leave of an event file written without fsync is repaired from its claim; anything else is
// a changed file and must stay an error. So the line between the two is drawn exactly.

const bytes = (text: string, zeros = 0) =>
  new Uint8Array([...new TextEncoder().encode(text), ...new Array(zeros).fill(0)]);
const intended = bytes('{"kind":"MessageEvent","id":"e1"}');

describe('isUnfinishedCopy', () => {
  it('is true for what a crash leaves: empty, cut short, or cut short with a zero-filled tail', () => {
    expect(isUnfinishedCopy(bytes(''), intended)).toBe(true);
    expect(isUnfinishedCopy(bytes('{'), intended)).toBe(true);
    expect(isUnfinishedCopy(bytes('{"kind":"MessageEvent","id":"e1"'), intended)).toBe(true);
    // The file's size reached the disk, its last bytes did not.
    expect(isUnfinishedCopy(bytes('{"kind":"Mess', 20), intended)).toBe(true);
    expect(isUnfinishedCopy(new Uint8Array(intended.length), intended)).toBe(true);
  });

  it('is false for the whole file, more than it, or other bytes anywhere in the part written', () => {
    expect(isUnfinishedCopy(intended, intended)).toBe(false);
    expect(isUnfinishedCopy(bytes('{"kind":"MessageEvent","id":"e1"}', 3), intended)).toBe(false);
    expect(isUnfinishedCopy(bytes('{"kind":"MessageEvent","id":"e1"}\n'), intended)).toBe(false);
    expect(isUnfinishedCopy(bytes('['), intended)).toBe(false);
    expect(isUnfinishedCopy(bytes('{"kind":"MessageEvenX'), intended)).toBe(false);
    expect(isUnfinishedCopy(bytes('{"kind":"MessageEvenX', 5), intended)).toBe(false);
    // Nothing is an unfinished copy of an empty file.
    expect(isUnfinishedCopy(bytes(''), bytes(''))).toBe(false);
  });
});
