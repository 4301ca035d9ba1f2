import { EventsError, serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { countingStore } from '../test/helpers/counting-store.js';
import { messageText, userMessageEvent } from '../test/helpers/events.js';
import { AppendConflictError } from './errors/append-conflict-error.js';
import { CorruptEventError } from './errors/corrupt-event-error.js';
import { DuplicateEventIdError } from './errors/duplicate-event-id-error.js';
import { EventIndexOutOfRangeError } from './errors/event-index-out-of-range-error.js';
import { InvalidEventIdError } from './errors/invalid-event-id-error.js';
import { UnknownEventIdError } from './errors/unknown-event-id-error.js';
import { eventFileName } from './event-log/file-names.js';
import { EventLog } from './event-log.js';
import type { FileStore } from './file-store.js';
import { createMemoryFileStore } from './memory-file-store.js';

async function appendMessages(log: EventLog, count: number, label = 'm'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const event = userMessageEvent(`${label}${i}`);
    await log.append(event);
    ids.push(event.id);
  }
  return ids;
}

async function eventNames(store: FileStore, dir = 'events'): Promise<string[]> {
  return (await store.list(dir)).filter((path) => !path.endsWith('/'));
}

describe('EventLog append and reads', () => {
  it('stores each event as events/event-{index:05d}-{id}.json and reads it back', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store);
    const first = userMessageEvent('hello');
    const second = userMessageEvent('world');
    expect(await log.append(first)).toBe(0);
    expect(await log.append(second)).toBe(1);

    expect(log.length).toBe(2);
    expect(await eventNames(store)).toEqual([
      `events/${eventFileName(0, first.id)}`,
      `events/${eventFileName(1, second.id)}`,
    ]);
    expect(await store.read(`events/event-00001-${second.id}.json`)).toBe(serializeEvent(second));
    expect(await store.list('events/.slots')).toEqual(['events/.slots/00000.json', 'events/.slots/00001.json']);

    expect(messageText(await log.get(0))).toBe('hello');
    expect(messageText(await log.get(-1))).toBe('world');
    expect((await log.getById(first.id)).id).toBe(first.id);
    expect(log.indexOf(second.id)).toBe(1);
    expect(log.indexOf('not-there')).toBe(-1);
    expect(log.idAt(-2)).toBe(first.id);
  });

  it('reopens from one listing without reading any event file', async () => {
    const { store, counts, reset } = countingStore(createMemoryFileStore());
    const ids = await appendMessages(await EventLog.open(store), 30);
    reset();
    const reopened = await EventLog.open(store);
    expect(reopened.length).toBe(30);
    expect(counts.list).toBe(1);
    // The one read is the probe for a slot claim at index 30, which finds none.
    expect(counts.read).toBe(1);
    expect(ids.map((id) => reopened.indexOf(id))).toEqual(ids.map((_, index) => index));
    expect(messageText(await reopened.get(29))).toBe('m29');
  });

  it('costs one claim and one write per append (the chain link rides in the claim), never a listing, however long the log', async () => {
    const { store, counts, reset } = countingStore(createMemoryFileStore());
    const log = await EventLog.open(store);
    await appendMessages(log, 200);
    reset();
    await appendMessages(log, 10, 'late');
    expect(counts).toEqual({ read: 0, write: 10, writeIfAbsent: 10, copy: 0, list: 0, delete: 0, exists: 0 });
  });

  it('reads ranges with slice semantics and iterates in order', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    await appendMessages(log, 150);
    expect((await log.range(3, 6)).map(messageText)).toEqual(['m3', 'm4', 'm5']);
    expect((await log.range(-2)).map(messageText)).toEqual(['m148', 'm149']);
    expect(await log.range(140, 500)).toHaveLength(10);
    expect(await log.range(5, 2)).toEqual([]);
    const seen: string[] = [];
    for await (const event of log.iterate(100)) seen.push(messageText(event));
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `m${i + 100}`));
    let all = 0;
    for await (const _ of log) all++;
    expect(all).toBe(150);
  });

  it('rejects out-of-range indices and unknown ids with typed errors', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    await appendMessages(log, 2);
    await expect(log.get(2)).rejects.toBeInstanceOf(EventIndexOutOfRangeError);
    await expect(log.get(-3)).rejects.toThrow('Event index out of range: -3');
    await expect(log.getById('nope')).rejects.toBeInstanceOf(UnknownEventIdError);
    expect(() => log.idAt(5)).toThrow(EventIndexOutOfRangeError);
  });

  it('rejects an index that is not an integer, however close to one in range', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    await appendMessages(log, 3);
    for (const index of [0.5, 1.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => log.idAt(index), String(index)).toThrow(EventIndexOutOfRangeError);
      await expect(log.get(index), String(index)).rejects.toBeInstanceOf(EventIndexOutOfRangeError);
    }
  });

  it('keeps only cacheSize parsed events and re-reads evicted ones', async () => {
    const { store, counts, reset } = countingStore(createMemoryFileStore());
    await appendMessages(await EventLog.open(store), 5);
    const log = await EventLog.open(store, { cacheSize: 2 });
    reset();
    const again = await log.get(0);
    expect(await log.get(0)).toBe(again);
    expect(counts.read).toBe(1);
    await log.get(1);
    await log.get(2);
    await log.get(0);
    expect(counts.read).toBe(4);
  });

  it('uses a custom directory', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store, { dir: 'conversations/abc/events' });
    const event = userMessageEvent('x');
    await log.append(event);
    expect(await eventNames(store, 'conversations/abc/events')).toEqual([
      `conversations/abc/events/event-00000-${event.id}.json`,
    ]);
  });
});

describe('EventLog append validation', () => {
  it('rejects a duplicate id and leaves the log unchanged', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store);
    const event = userMessageEvent('once');
    await log.append(event);
    const error = await log.append(event).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect((error as DuplicateEventIdError).existingIndex).toBe(0);
    expect(log.length).toBe(1);
    expect(await eventNames(store)).toHaveLength(1);
  });

  it('rejects an event that does not round-trip with the error from @x/events', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    const broken = { ...userMessageEvent('x'), llm_message: 5 } as unknown as Parameters<EventLog['append']>[0];
    const error = await log.append(broken).catch((caught: unknown) => caught);
    expect(EventsError.isInstance(error)).toBe(true);
    expect(log.length).toBe(0);
  });

  it('rejects ids that cannot be part of a file name, and indexes short ids the reference cannot', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store);
    await expect(log.append(userMessageEvent('x', 'a/b'))).rejects.toBeInstanceOf(InvalidEventIdError);
    await expect(log.append(userMessageEvent('x', 'has space'))).rejects.toBeInstanceOf(InvalidEventIdError);
    await log.append(userMessageEvent('short', 'event-1'));
    const reopened = await EventLog.open(store);
    expect(reopened.indexOf('event-1')).toBe(0);
  });
});

describe('EventLog with several writers on one store', () => {
  it('gives interleaved appends from two instances distinct, contiguous indices', async () => {
    const store = createMemoryFileStore();
    const a = await EventLog.open(store);
    const b = await EventLog.open(store);
    const results = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => a.append(userMessageEvent(`a${i}`))),
      ...Array.from({ length: 20 }, (_, i) => b.append(userMessageEvent(`b${i}`))),
    ]);
    expect([...results].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    const reopened = await EventLog.open(store);
    expect(reopened.length).toBe(40);
    expect(new Set((await reopened.range(0)).map((event) => event.id)).size).toBe(40);
    await b.refresh();
    await a.refresh();
    expect(a.length).toBe(40);
    expect(b.length).toBe(40);
  });

  it('fails an append with expectedIndex when another writer took that index', async () => {
    const store = createMemoryFileStore();
    const a = await EventLog.open(store);
    const b = await EventLog.open(store);
    await a.append(userMessageEvent('a0'), { expectedIndex: 0 });
    const error = await b.append(userMessageEvent('b0'), { expectedIndex: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppendConflictError);
    expect(error).toMatchObject({ expectedIndex: 0, actualIndex: 1 });
    expect(b.length).toBe(1);
    expect(await b.append(userMessageEvent('b1'), { expectedIndex: 1 })).toBe(1);
    await expect(a.append(userMessageEvent('a1'), { expectedIndex: 1 })).rejects.toMatchObject({
      expectedIndex: 1,
      actualIndex: 2,
    });
    expect((await EventLog.open(store)).length).toBe(2);
  });

  it('detects a duplicate appended by another writer through its slot claim', async () => {
    const store = createMemoryFileStore();
    const a = await EventLog.open(store);
    const b = await EventLog.open(store);
    const event = userMessageEvent('same');
    await a.append(event);
    await expect(b.append(event)).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect((await EventLog.open(store)).length).toBe(1);
  });

  it('finishes the append of a writer that crashed after claiming its slot', async () => {
    const store = createMemoryFileStore();
    const stale = await EventLog.open(store);
    const crashed = userMessageEvent('crashed');
    await store.writeIfAbsent('events/.slots/00000.json', serializeEvent(crashed));
    expect(await eventNames(store)).toEqual([]);

    const mine = userMessageEvent('mine');
    expect(await stale.append(mine)).toBe(1);
    expect(await eventNames(store)).toEqual([
      `events/event-00000-${crashed.id}.json`,
      `events/event-00001-${mine.id}.json`,
    ]);
    expect(messageText(await stale.get(0))).toBe('crashed');
  });

  it('rolls a claim without its event file forward on open', async () => {
    const store = createMemoryFileStore();
    await appendMessages(await EventLog.open(store), 2);
    const crashed = userMessageEvent('crashed');
    await store.writeIfAbsent('events/.slots/00002.json', serializeEvent(crashed));
    const log = await EventLog.open(store);
    expect(log.length).toBe(3);
    expect(await store.exists(`events/event-00002-${crashed.id}.json`)).toBe(true);
    expect(messageText(await log.get(2))).toBe('crashed');
  });

  it('sees events another instance appended after refresh, by probing claims only', async () => {
    const { store, counts, reset } = countingStore(createMemoryFileStore());
    const reader = await EventLog.open(store);
    const writer = await EventLog.open(store);
    await appendMessages(writer, 3);
    reset();
    expect(await reader.refresh()).toBe(3);
    expect(counts.list).toBe(0);
    expect(counts.read).toBe(4);
    expect(messageText(await reader.get(2))).toBe('m2');
    expect(await reader.refresh()).toBe(0);
  });

  it('picks up event files written without claims when refreshing with relist', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store);
    const foreign = userMessageEvent('foreign');
    await store.write(`events/event-00000-${foreign.id}.json`, serializeEvent(foreign));
    expect(await log.refresh()).toBe(0);
    expect(await log.refresh({ relist: true })).toBe(1);
    expect(log.indexOf(foreign.id)).toBe(0);
    expect(await log.append(userMessageEvent('next'))).toBe(1);
  });

  it('reads an event known from a claim whose file is not written yet, and writes that file', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store, { cacheSize: 0 });
    const pending = userMessageEvent('pending');
    await store.writeIfAbsent('events/.slots/00000.json', serializeEvent(pending));
    expect(await log.refresh()).toBe(1);
    expect(await store.exists(`events/event-00000-${pending.id}.json`)).toBe(false);
    expect(messageText(await log.get(0))).toBe('pending');
    expect(await store.exists(`events/event-00000-${pending.id}.json`)).toBe(true);
  });
});

describe('EventLog reading damaged or foreign directories', () => {
  it('reports a corrupt file in the middle on the read that touches it, and reads the others', async () => {
    const store = createMemoryFileStore();
    const ids = await appendMessages(await EventLog.open(store), 5);
    const badPath = `events/event-00002-${ids[2]}.json`;
    await store.write(badPath, '{"id": "truncated');
    const log = await EventLog.open(store);
    expect(log.length).toBe(5);
    const error = await log.get(2).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptEventError);
    expect((error as CorruptEventError).location).toBe(store.describe(badPath));
    expect((error as Error).message).toContain(badPath);
    expect(messageText(await log.get(1))).toBe('m1');
    expect(messageText(await log.get(3))).toBe('m3');
    const seen: string[] = [];
    await expect(async () => {
      for await (const event of log.iterate(0)) seen.push(messageText(event));
    }).rejects.toBeInstanceOf(CorruptEventError);
    expect((await log.range(3)).map(messageText)).toEqual(['m3', 'm4']);
  });

  it('treats an empty file and an id that disagrees with the name as corrupt when no claim holds the event', async () => {
    const store = createMemoryFileStore();
    const events = [userMessageEvent('a'), userMessageEvent('b')];
    // Written as the reference writes them: event files only, no slot claims.
    for (const [index, event] of events.entries()) {
      await store.write(`events/${eventFileName(index, event.id)}`, serializeEvent(event));
    }
    await store.write(`events/${eventFileName(0, events[0]!.id)}`, '');
    await store.write(`events/${eventFileName(1, events[1]!.id)}`, serializeEvent(userMessageEvent('other')));
    const log = await EventLog.open(store);
    await expect(log.get(0)).rejects.toThrow('the file is empty');
    await expect(log.get(1)).rejects.toThrow(`its name says id '${events[1]!.id}'`);
  });

  it('reads an empty or cut-short event file from its slot claim, rewrites it and warns; other content stays corrupt', async () => {
    const store = createMemoryFileStore();
    const ids = await appendMessages(await EventLog.open(store), 3);
    const path = (index: number) => `events/event-0000${index}-${ids[index]}.json`;
    const original = await Promise.all([0, 1, 2].map((index) => store.read(path(index))));
    await store.write(path(0), '');
    await store.write(path(1), `${original[1]!.slice(0, 25)}\u0000\u0000\u0000`);
    await store.write(path(2), `${original[2]!.slice(0, 25)}}`);
    const warnings: string[] = [];
    const log = await EventLog.open(store, { logger: { warn: (message) => warnings.push(message) } });
    expect((await log.get(0)).id).toBe(ids[0]);
    expect((await log.get(1)).id).toBe(ids[1]);
    expect(await store.read(path(0))).toBe(original[0]);
    expect(await store.read(path(1))).toBe(original[1]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('was left unfinished (empty');
    expect(warnings[1]).toContain('was left unfinished (cut short');
    // Not a prefix of what the claim holds: a changed file, reported and left as it is.
    await expect(log.get(2)).rejects.toMatchObject({ code: 'corrupt_event' });
    expect(await store.read(path(2))).toBe(`${original[2]!.slice(0, 25)}}`);
  });

  it('stops at the first gap and warns about the files after it', async () => {
    const store = createMemoryFileStore();
    const events = [0, 1, 3].map((index) => ({ index, event: userMessageEvent(`e${index}`) }));
    for (const { index, event } of events) {
      await store.write(`events/${eventFileName(index, event.id)}`, serializeEvent(event));
    }
    await store.write('events/notes.txt', 'hello');
    await store.write('events/.eventlog.lock', '');
    const warnings: string[] = [];
    const log = await EventLog.open(store, { logger: { warn: (message) => warnings.push(message) } });
    expect(log.length).toBe(2);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('index 2 is missing, so 1 event file(s) after it are ignored');
    expect(warnings[1]).toContain('events/notes.txt');
  });

  it('returns events of unknown kinds instead of filtering them', async () => {
    const store = createMemoryFileStore();
    const id = '0f0e0d0c-0b0a-4908-8706-050403020100';
    await store.write(
      `events/event-00000-${id}.json`,
      JSON.stringify({
        id,
        timestamp: '2030-01-01T00:00:00.000000',
        source: 'agent',
        future_field: 1,
        kind: 'FutureEvent',
      }),
    );
    const log = await EventLog.open(store);
    const event = await log.get(0);
    expect(event).toMatchObject({ kind: 'OpaqueEvent', opaque_kind: 'FutureEvent', id });
    expect(JSON.parse(serializeEvent(event))).toMatchObject({ future_field: 1, kind: 'FutureEvent' });
    // An opaque event appends like any other, its JSON unchanged.
    const copy = await EventLog.open(createMemoryFileStore());
    await copy.append(event);
    expect(await copy.store.read(`events/event-00000-${id}.json`)).toBe(serializeEvent(event));
  });
});
