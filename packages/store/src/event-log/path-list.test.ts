import { describe, expect, it } from 'vitest';
import { StoreInvariantError } from '../errors/store-invariant-error.js';
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
  });

  it('refuses to adopt an index over paths it holds, with a StoreInvariantError naming them', () => {
    const read = parseNameIndex(index(['event-00000-a.json']), 't');
    if (read.kind !== 'current') throw new Error(`unexpected ${read.kind}`);
    const pushedOnly = new PathList();
    pushedOnly.push('conv/events/event-00000-a.json');
    const adopted = new PathList();
    adopted.adopt('conv/events/', read.text, read.starts, read.count);
    for (const list of [pushedOnly, adopted]) {
      const error = (() => {
        try {
          list.adopt('x/', read.text, read.starts, read.count);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(StoreInvariantError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'store_invariant',
        message: expect.stringContaining(
          'the paths of "x/" were adopted from an index into a list that already holds 1',
        ),
      });
      // Nothing was adopted over what it held.
      expect(list.length).toBe(1);
      expect(list.at(0)).toBe('conv/events/event-00000-a.json');
    }
  });

  it('reads an index of no names as empty, and rejects one with more lines than it says', () => {
    expect(parseNameIndex(index([]), 't')).toMatchObject({ kind: 'current', count: 0 });
    const extra = `${index(['event-00000-a.json'])}event-00001-b.json\n`;
    expect(parseNameIndex(extra, 't').kind).toBe('invalid');
    expect(parseNameIndex(index(['event-00000-a.json']), 'other').kind).toBe('stale');
  });
});
