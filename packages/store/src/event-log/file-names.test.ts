import { describe, expect, it } from 'vitest';
import { eventFileName, eventIdOfPath, isStorableEventId, parseEventFileName, slotFileName } from './file-names.js';

describe('event file names', () => {
  it('pads the index to at least five digits', () => {
    expect(eventFileName(0, 'abc')).toBe('event-00000-abc.json');
    expect(eventFileName(12345, 'abc')).toBe('event-12345-abc.json');
    expect(eventFileName(100_001, 'abc')).toBe('event-100001-abc.json');
    expect(slotFileName(7)).toBe('00007.json');
  });

  it('parses names the reference writes, with the index read numerically', () => {
    const id = '3f2c1a7e-9b1d-4c3e-8f00-0123456789ab';
    expect(parseEventFileName(`event-00042-${id}.json`)).toEqual({ index: 42, id });
    expect(parseEventFileName(`events/event-100000-${id}.json`)).toEqual({ index: 100_000, id });
    expect(parseEventFileName('event-0000012-abcdef01.json')).toEqual({ index: 12, id: 'abcdef01' });
  });

  it('round-trips every id our writer accepts, including ones the reference regex skips', () => {
    for (const id of ['event-1', 'test_id', 'A', 'abcdef01']) {
      expect(isStorableEventId(id)).toBe(true);
      expect(parseEventFileName(eventFileName(3, id))).toEqual({ index: 3, id });
    }
  });

  it('accepts ids at the edges of the allowed characters and length', () => {
    // Each end of every character range, and the longest id a file name may hold.
    for (const id of ['0', '9', 'A', 'Z', 'a', 'z', '-', '_', 'x'.repeat(200)]) {
      expect(isStorableEventId(id), id).toBe(true);
      expect(parseEventFileName(eventFileName(0, id)), id).toEqual({ index: 0, id });
    }
    // The characters just outside each range.
    for (const id of ['/', ':', '@', '[', '`', '{', ',', '.', '^']) expect(isStorableEventId(id), id).toBe(false);
  });

  it('rejects names of any other shape', () => {
    for (const name of [
      'event-0001-abcdef01.json',
      'event-00001abcdef01.json',
      'event-00001-.json',
      'event-00001-abc def.json',
      'event-00001-abcdef01.json.tmp',
      'xevent-00001-abcdef01.json',
      '.eventlog.lock',
      'event--abcdef01.json',
      `event-${'9'.repeat(20)}-abcdef01.json`,
    ]) {
      expect(parseEventFileName(name), name).toBeUndefined();
    }
    for (const id of ['', 'a/b', 'a.b', 'é', 'x'.repeat(201)]) expect(isStorableEventId(id), id).toBe(false);
  });
});

describe('eventIdOfPath', () => {
  it('slices the id out of a valid event path', () => {
    expect(eventIdOfPath('a/events/event-100000-abc-def.json')).toBe('abc-def');
    expect(eventIdOfPath('event-00001-x.json')).toBe('x');
  });
});
