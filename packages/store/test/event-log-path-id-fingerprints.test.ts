import { describe, expect, it } from 'vitest';
import { eventFileName } from '../src/event-log/file-names.js';
import { PathIdTable } from '../src/event-log/path-id-table.js';

/**
 * `PathIdTable` keys ids by their last four characters: ids sharing them (`…-0001` in many logs' own numbering)
 * are told apart by their paths, and an id that is not there is not found through another one's fingerprint.
 */

const path = (index: number, id: string): string => `conv/events/${eventFileName(index, id)}`;

describe('PathIdTable fingerprints', () => {
  it('tells apart ids with the same last four characters, and finds no absent id through them', () => {
    const ids = ['first-0001', 'second-0001', 'third-0001', 'other-0002'];
    const paths = ids.map((id, index) => path(index, id));
    const table = new PathIdTable();
    expect(ids.map((id) => table.find(paths, id))).toEqual([0, 1, 2, 3]);
    expect(table.find(paths, 'fourth-0001')).toBeUndefined();
    expect(table.find(paths, '0001')).toBeUndefined();
    // Seeded from a name index's text alike.
    const names = ids.map((id, index) => eventFileName(index, id));
    const text = `header\n${names.join('\n')}\n`;
    const starts = new Int32Array(names.length + 1);
    starts[0] = text.indexOf('\n') + 1;
    names.forEach((name, index) => {
      starts[index + 1] = starts[index]! + name.length + 1;
    });
    const seeded = new PathIdTable();
    seeded.seed(0, text, starts, names.length);
    expect(ids.map((id) => seeded.find(paths, id))).toEqual([0, 1, 2, 3]);
    expect(seeded.find(paths, 'fourth-0001')).toBeUndefined();
  });
});
