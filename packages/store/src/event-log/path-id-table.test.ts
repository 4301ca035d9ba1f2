import { describe, expect, it } from 'vitest';
import { eventFileName } from './file-names.js';
import { PathIdTable } from './path-id-table.js';

const path = (index: number, id: string): string => `conv/events/${eventFileName(index, id)}`;

describe('PathIdTable', () => {
  it('finds every id across growth, and nothing for ids not there', () => {
    const paths: string[] = [];
    const table = new PathIdTable();
    for (let index = 0; index < 5000; index++) {
      paths.push(path(index, `id-${index}`));
      // Lookups between pushes extend the table (and make it grow several times).
      if (index % 997 === 0) expect(table.find(paths, `id-${index}`)).toBe(index);
    }
    for (let index = 0; index < 5000; index += 7) expect(table.find(paths, `id-${index}`)).toBe(index);
    expect(table.find(paths, 'id-5000')).toBeUndefined();
    expect(table.find(paths, 'id-1')).toBe(1);
    expect(table.find(paths, 'id-')).toBeUndefined();
    expect(table.find(paths, '')).toBeUndefined();
  });

  it('gives the first index of a repeated id, also after the table grew past both', () => {
    const paths: string[] = [];
    const table = new PathIdTable();
    for (let index = 0; index < 3000; index++) paths.push(path(index, index % 1000 === 7 ? 'twice' : `u${index}`));
    expect(table.find(paths, 'twice')).toBe(7);
    for (let index = 3000; index < 9000; index++) paths.push(path(index, `u${index}`));
    paths.push(path(9000, 'u5'));
    expect(table.find(paths, 'twice')).toBe(7);
    expect(table.find(paths, 'u5')).toBe(5);
    expect(table.find(paths, 'u8999')).toBe(8999);
  });

  it('tells apart ids whose paths differ only in the index digits around them', () => {
    const paths = [path(0, '1-a'), path(1, 'a'), path(100000, 'b')];
    const table = new PathIdTable();
    expect(table.find(paths, 'a')).toBe(1);
    expect(table.find(paths, '1-a')).toBe(0);
    expect(table.find(paths, 'b')).toBe(2);
  });

  it('takes fingerprints seeded from a name index text, then extends from the paths', () => {
    const names = Array.from({ length: 3000 }, (_, index) => eventFileName(index, `seeded-${index}`));
    const text = `header\n${names.join('\n')}\n`;
    const starts = new Int32Array(names.length + 1);
    let start = text.indexOf('\n') + 1;
    names.forEach((name, index) => {
      starts[index] = start;
      start += name.length + 1;
    });
    starts[names.length] = start;
    const table = new PathIdTable();
    table.seed(0, text, starts, names.length);
    const paths = names.map((name) => `conv/events/${name}`);
    paths.push(path(3000, 'later-one'));
    expect(table.find(paths, 'seeded-2999')).toBe(2999);
    expect(table.find(paths, 'seeded-0')).toBe(0);
    expect(table.find(paths, 'later-one')).toBe(3000);
    expect(table.find(paths, 'seeded-3000')).toBeUndefined();
  });

  it('says whether an index is the first holding its id, as find does, among ids sharing their fingerprint', () => {
    const paths: string[] = [];
    const table = new PathIdTable();
    // Every id ends in 'same', so all share one fingerprint; 'xsame' is repeated at 40 and 2999 (past growth).
    for (let index = 0; index < 3000; index++) {
      const id = index === 40 || index === 2999 ? 'xsame' : `${index}same`;
      paths.push(path(index, id));
      if (index === 41) expect(table.isFirstIndexOf(paths, 40, 'xsame')).toBe(true);
    }
    for (let index = 0; index < 3000; index++) {
      const id = index === 40 || index === 2999 ? 'xsame' : `${index}same`;
      expect(table.isFirstIndexOf(paths, index, id), `index ${index}`).toBe(table.find(paths, id) === index);
    }
    expect(table.isFirstIndexOf(paths, 2999, 'xsame')).toBe(false);
    expect(table.isFirstIndexOf(paths, 40, 'xsame')).toBe(true);
    const short = [path(0, 'ab'), path(1, 'ab')];
    expect(new PathIdTable().isFirstIndexOf(short, 1, 'ab')).toBe(false);
    expect(new PathIdTable().isFirstIndexOf(short, 0, 'ab')).toBe(true);
  });
});
