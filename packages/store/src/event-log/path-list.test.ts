import { describe, expect, it } from 'vitest';
import { parseNameIndex } from './name-index.js';
import { PathList } from './path-list.js';

const index = (names: string[]): string =>
  `${JSON.stringify({ format: 'x-name-index', v: 1, listing: 't', count: names.length })}\n${names.map((name) => `${name}\n`).join('')}`;

describe('PathList', () => {
  it('serves adopted names as paths, then pushed paths, and gives back the index body', () => {
    const names = ['event-00000-a.json', 'event-00001-b.json', 'event-00002-c.json'];
    const read = parseNameIndex(index(names), 't');
    if (read.kind !== 'current') throw new Error(`unexpected ${read.kind}`);
    const list = new PathList();
    list.adopt('conv/events/', read.text, read.starts, read.count);
    list.push('conv/events/event-00003-d.json');
    expect(list.length).toBe(4);
    expect([0, 1, 2, 3].map((at) => list.at(at))).toEqual([
      'conv/events/event-00000-a.json',
      'conv/events/event-00001-b.json',
      'conv/events/event-00002-c.json',
      'conv/events/event-00003-d.json',
    ]);
    expect(list.at(4)).toBeUndefined();
    expect(list.at(-1)).toBeUndefined();
    // The file names the packed read cache compares, adopted and pushed alike.
    expect([0, 1, 2, 3, 4, -1].map((at) => list.nameAt(at))).toEqual([
      'event-00000-a.json',
      'event-00001-b.json',
      'event-00002-c.json',
      'event-00003-d.json',
      undefined,
      undefined,
    ]);
    expect(list.namesText('conv/events/', 4)).toBe(`${[...names, 'event-00003-d.json'].join('\n')}\n`);
    expect(list.namesText('conv/events/', 2)).toBe('event-00000-a.json\nevent-00001-b.json\n');
    expect(list.namesText('conv/events/', 0)).toBe('');
    expect(() => list.adopt('x/', read.text, read.starts, read.count)).toThrow();
  });

  it('reads an index of no names as empty, and rejects one with more lines than it says', () => {
    expect(parseNameIndex(index([]), 't')).toMatchObject({ kind: 'current', count: 0 });
    const extra = `${index(['event-00000-a.json'])}event-00001-b.json\n`;
    expect(parseNameIndex(extra, 't').kind).toBe('invalid');
    expect(parseNameIndex(index(['event-00000-a.json']), 'other').kind).toBe('stale');
  });
});
