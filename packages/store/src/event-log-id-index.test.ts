import { serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { userMessageEvent } from '../test/helpers/events.js';
import { DuplicateEventIdError } from './errors/duplicate-event-id-error.js';
import { eventFileName, pathHasEventId } from './event-log/file-names.js';
import { EventLog } from './event-log.js';
import { createMemoryFileStore } from './memory-file-store.js';

describe('EventLog id index of a reopened log (built on first use)', () => {
  it('rejects a duplicate of any stored event before and after the index catches up, first index winning', async () => {
    const store = createMemoryFileStore();
    const writer = await EventLog.open(store);
    const events = Array.from({ length: 40 }, (_, i) => userMessageEvent(`m${i}`));
    for (const event of events) await writer.append(event);
    // A foreign log may repeat an id: the reference (and indexOf) report the first index.
    const repeated = events[3]!;
    await store.write(`events/${eventFileName(40, repeated.id)}`, serializeEvent(repeated));

    const log = await EventLog.open(store);
    expect(log.length).toBe(41);
    for (const index of [0, 3, 39]) {
      const error = await log.append(events[index]!).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DuplicateEventIdError);
      expect((error as DuplicateEventIdError).existingIndex).toBe(index);
    }
    expect(await log.append(userMessageEvent('new'))).toBe(41);
    const again = await log.append(events[20]!).catch((caught: unknown) => caught);
    expect((again as DuplicateEventIdError).existingIndex).toBe(20);
    expect(log.indexOf(repeated.id)).toBe(3);
    expect(log.length).toBe(42);
  });

  it('answers indexOf and getById at once on a fresh open (no background work needed)', async () => {
    const store = createMemoryFileStore();
    const writer = await EventLog.open(store);
    const events = Array.from({ length: 5 }, (_, i) => userMessageEvent(`e${i}`));
    for (const event of events) await writer.append(event);
    const log = await EventLog.open(store);
    expect(log.indexOf(events[4]!.id)).toBe(4);
    expect((await log.getById(events[2]!.id)).id).toBe(events[2]!.id);
    expect(log.indexOf('missing')).toBe(-1);
  });
});

describe('EventLog id lookups on a long reopened log (scans first, then the map)', () => {
  it('answers the same before and after the id map is built, first index winning', async () => {
    const store = createMemoryFileStore();
    const count = 5_000;
    const ids = Array.from({ length: count }, (_, i) => `id-${i}`);
    ids[4_500] = 'id-7'; // a foreign log repeating an id: the first index (7) wins
    const text = serializeEvent(userMessageEvent('x', 'unused'));
    for (const [index, id] of ids.entries()) await store.write(`events/${eventFileName(index, id)}`, text);
    const log = await EventLog.open(store);
    expect(log.length).toBe(count);
    // Enough lookups to pass the scanning budget, so both ways are exercised.
    for (let round = 0; round < 40; round++) {
      expect(log.indexOf('id-7')).toBe(7);
      expect(log.indexOf('id-4999')).toBe(4_999);
      expect(log.indexOf('id-4500')).toBe(-1);
      expect(log.indexOf('d-7')).toBe(-1);
    }
    const error = await log.append(userMessageEvent('dup', 'id-4999')).catch((caught: unknown) => caught);
    expect((error as DuplicateEventIdError).existingIndex).toBe(4_999);
    expect(await log.append(userMessageEvent('new', 'id-new'))).toBe(count);
    expect(log.indexOf('id-new')).toBe(count);
  });

  it('rejects a duplicate on the first append after opening, while it still scans', async () => {
    const store = createMemoryFileStore();
    const text = serializeEvent(userMessageEvent('x', 'unused'));
    for (let index = 0; index < 5_000; index++) await store.write(`events/${eventFileName(index, `e-${index}`)}`, text);
    const log = await EventLog.open(store);
    const error = await log.append(userMessageEvent('dup', 'e-3')).catch((caught: unknown) => caught);
    expect((error as DuplicateEventIdError).existingIndex).toBe(3);
    expect(await log.append(userMessageEvent('fresh', 'e-5000'))).toBe(5_000);
  });
});

describe('pathHasEventId', () => {
  it('is eventIdOfPath(path) === id, ids with dashes included', () => {
    const path = `conv/events/${eventFileName(7, 'x-abc')}`;
    expect(pathHasEventId(path, 'x-abc')).toBe(true);
    expect(pathHasEventId(path, 'abc')).toBe(false);
    expect(pathHasEventId(path, 'bc')).toBe(false);
    expect(pathHasEventId(path, '00007-x-abc')).toBe(false);
    expect(pathHasEventId(eventFileName(123456, 'id_1'), 'id_1')).toBe(true);
  });
});
