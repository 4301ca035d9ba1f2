import { describe, expect, it } from 'vitest';
import { eventFileName } from './file-names.js';
import { scanListing } from './scan.js';

describe('scanListing', () => {
  it('places files by numeric index, so a log runs contiguously past 99,999', () => {
    const count = 100_002;
    // A code-point-sorted listing puts event-100000 before event-10001: the scan must not care.
    const listing = Array.from({ length: count }, (_, index) => `events/${eventFileName(index, `id-${index}`)}`).sort();
    const { byIndex, beyond } = scanListing(listing);
    expect(byIndex.includes(undefined)).toBe(false);
    expect(byIndex[100_001]).toBe('events/event-100001-id-100001.json');
    expect(beyond).toBe(0);
  });

  it('gives the same result for an unordered listing (listUnordered) as for a sorted one', () => {
    const sorted = [
      'events/event-00000-aaaaaaaa.json',
      'events/event-00000-bbbbbbbb.json',
      'events/event-00000-cccccccc.json',
      'events/event-00001-dddddddd.json',
      'events/x.txt',
      'events/y.txt',
    ];
    const expected = scanListing(sorted);
    for (const listing of [
      [...sorted].reverse(),
      [sorted[2]!, sorted[5]!, sorted[0]!, sorted[3]!, sorted[1]!, sorted[4]!],
    ]) {
      expect(scanListing(listing)).toEqual(expected);
    }
    expect(expected.byIndex[0]).toBe('events/event-00000-aaaaaaaa.json');
  });

  it('keeps the first of two files for one index and sets aside the rest', () => {
    const listing = [
      'events/.eventlog.lock',
      'events/.slots/',
      'events/event-00000-aaaaaaaa.json',
      'events/event-00000-bbbbbbbb.json',
      'events/event-00009-cccccccc.json',
      'events/x.txt',
    ];
    const result = scanListing(listing);
    expect(result.byIndex[0]).toBe('events/event-00000-aaaaaaaa.json');
    expect(result.duplicates).toEqual(['events/event-00000-bbbbbbbb.json']);
    expect(result.beyond).toBe(1);
    expect(result.ignored).toEqual(['events/x.txt']);
  });
});
