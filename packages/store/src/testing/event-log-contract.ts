import { randomUUID } from 'node:crypto';
import { type AnyEvent, EventsError, parseEvent, serializeEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { AppendConflictError } from '../errors/append-conflict-error.js';
import { DuplicateEventIdError } from '../errors/duplicate-event-id-error.js';
import { EventIndexOutOfRangeError } from '../errors/event-index-out-of-range-error.js';
import { InvalidEventIdError } from '../errors/invalid-event-id-error.js';
import { UnknownEventIdError } from '../errors/unknown-event-id-error.js';
import type { EventLogLike } from '../event-log/event-log-like.js';
import type { LogEntry } from '../event-log/subscription.js';

/** One empty log location: every `open()` is a new instance (as another process would have) on the same log. */
export interface EventLogContractLocation {
  open(): Promise<EventLogLike>;
  /** Called after the test; closes instances, drops tables or directories. */
  cleanup?(): Promise<void>;
}

/** A user MessageEvent with `text`, valid for every log. */
export function contractMessageEvent(text: string, id: string = randomUUID()): AnyEvent {
  return parseEvent({
    id,
    timestamp: '2026-11-21T10:00:00.000000',
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
    kind: 'MessageEvent',
  });
}

function textOf(event: AnyEvent): string {
  const message = (event as { llm_message?: { content?: { text?: string }[] } }).llm_message;
  return message?.content?.[0]?.text ?? '';
}

async function appendMessages(log: EventLogLike, count: number, label = 'm'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const event = contractMessageEvent(`${label}${i}`);
    await log.append(event);
    ids.push(event.id);
  }
  return ids;
}

/**
 * The behaviour every `EventLogLike` shares, run against each implementation (file logs on every
 * `FileStore`, PostgreSQL). `makeLocation` gives a fresh, empty log for each test.
 */
export function describeEventLogContract(
  name: string,
  makeLocation: () => Promise<EventLogContractLocation> | EventLogContractLocation,
): void {
  describe(`EventLog contract: ${name}`, () => {
    const locations: EventLogContractLocation[] = [];
    const fresh = async (): Promise<EventLogContractLocation> => {
      const location = await makeLocation();
      locations.push(location);
      return location;
    };
    afterEach(async () => {
      for (const location of locations.splice(0)) await location.cleanup?.();
    });

    it('appends at 0, 1, … and reads back by index, negative index, id and range', async () => {
      const log = await (await fresh()).open();
      const first = contractMessageEvent('hello');
      const second = contractMessageEvent('world');
      expect(await log.append(first)).toBe(0);
      expect(await log.append(second)).toBe(1);
      expect(log.length).toBe(2);
      expect(textOf(await log.get(0))).toBe('hello');
      expect(textOf(await log.get(-1))).toBe('world');
      expect((await log.getById(first.id)).id).toBe(first.id);
      expect(log.indexOf(second.id)).toBe(1);
      expect(log.indexOf('not-there')).toBe(-1);
      expect(log.idAt(-2)).toBe(first.id);
      expect(serializeEvent(await log.get(1))).toBe(serializeEvent(second));
    });

    it('chains every append and verifies the chain, from a reopened instance too', async () => {
      const location = await fresh();
      const log = await location.open();
      expect(await log.verifyChain()).toMatchObject({ status: 'unchained', length: 0, chainedFrom: null });
      await appendMessages(log, 5);
      const report = await (await location.open()).verifyChain();
      expect(report).toMatchObject({ status: 'verified', length: 5, chainedFrom: 0, problem: undefined });
      expect(report.headHash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('reads ranges with slice semantics and iterates in order', async () => {
      const log = await (await fresh()).open();
      await appendMessages(log, 150);
      expect((await log.range(3, 6)).map(textOf)).toEqual(['m3', 'm4', 'm5']);
      expect((await log.range(-2)).map(textOf)).toEqual(['m148', 'm149']);
      expect(await log.range(140, 500)).toHaveLength(10);
      expect(await log.range(5, 2)).toEqual([]);
      const seen: string[] = [];
      for await (const event of log.iterate(100)) seen.push(textOf(event));
      expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => `m${i + 100}`));
      let all = 0;
      for await (const _ of log) all++;
      expect(all).toBe(150);
    });

    it('reopens with every event at its index', async () => {
      const location = await fresh();
      const ids = await appendMessages(await location.open(), 30);
      const reopened = await location.open();
      expect(reopened.length).toBe(30);
      expect(ids.map((id) => reopened.indexOf(id))).toEqual(ids.map((_, index) => index));
      expect(textOf(await reopened.get(29))).toBe('m29');
    });

    it('rejects out-of-range indices and unknown ids with typed errors', async () => {
      const log = await (await fresh()).open();
      await appendMessages(log, 2);
      await expect(log.get(2)).rejects.toBeInstanceOf(EventIndexOutOfRangeError);
      await expect(log.get(-3)).rejects.toThrow('Event index out of range: -3');
      await expect(log.getById('nope')).rejects.toBeInstanceOf(UnknownEventIdError);
      expect(() => log.idAt(5)).toThrow(EventIndexOutOfRangeError);
    });

    it('rejects a duplicate id, an event that does not round-trip and an unstorable id, leaving the log unchanged', async () => {
      const log = await (await fresh()).open();
      const event = contractMessageEvent('once');
      await log.append(event);
      const duplicate = await log.append(event).catch((caught: unknown) => caught);
      expect(duplicate).toBeInstanceOf(DuplicateEventIdError);
      expect((duplicate as DuplicateEventIdError).existingIndex).toBe(0);
      const broken = { ...contractMessageEvent('x'), llm_message: 5 } as unknown as AnyEvent;
      expect(EventsError.isInstance(await log.append(broken).catch((caught: unknown) => caught))).toBe(true);
      await expect(log.append(contractMessageEvent('x', 'a/b'))).rejects.toBeInstanceOf(InvalidEventIdError);
      expect(log.length).toBe(1);
      expect(await log.append(contractMessageEvent('short', 'event-1'))).toBe(1);
    });

    it('appends a batch in order with appendMany, and rejects a batch with a duplicate before writing any of it', async () => {
      const location = await fresh();
      const log = await location.open();
      if (log.appendMany === undefined) throw new Error(`${name} has no appendMany`);
      await log.append(contractMessageEvent('first'));
      const batch = ['a', 'b', 'c'].map((text) => contractMessageEvent(text));
      expect(await log.appendMany(batch)).toEqual([1, 2, 3]);
      const again = contractMessageEvent('again');
      await expect(log.appendMany([again, batch[1]!])).rejects.toBeInstanceOf(DuplicateEventIdError);
      await expect(log.appendMany([again, again])).rejects.toBeInstanceOf(DuplicateEventIdError);
      const reopened = await location.open();
      expect(reopened.length).toBe(4);
      expect((await reopened.range(1)).map(textOf)).toEqual(['a', 'b', 'c']);
    });

    it('gives interleaved appends from two instances distinct, contiguous indices', async () => {
      const location = await fresh();
      const a = await location.open();
      const b = await location.open();
      const results = await Promise.all([
        ...Array.from({ length: 20 }, (_, i) => a.append(contractMessageEvent(`a${i}`))),
        ...Array.from({ length: 20 }, (_, i) => b.append(contractMessageEvent(`b${i}`))),
      ]);
      expect([...results].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
      const reopened = await location.open();
      expect(reopened.length).toBe(40);
      expect(new Set((await reopened.range(0)).map((event) => event.id)).size).toBe(40);
      await a.refresh();
      await b.refresh();
      expect([a.length, b.length]).toEqual([40, 40]);
    });

    it('fails an append with expectedIndex when another writer took that index', async () => {
      const location = await fresh();
      const a = await location.open();
      const b = await location.open();
      await a.append(contractMessageEvent('a0'), { expectedIndex: 0 });
      const error = await b.append(contractMessageEvent('b0'), { expectedIndex: 0 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppendConflictError);
      expect(error).toMatchObject({ expectedIndex: 0, actualIndex: 1 });
      expect(await b.append(contractMessageEvent('b1'), { expectedIndex: 1 })).toBe(1);
      await expect(a.append(contractMessageEvent('a1'), { expectedIndex: 1 })).rejects.toMatchObject({
        expectedIndex: 1,
        actualIndex: 2,
      });
      expect((await location.open()).length).toBe(2);
    });

    it("detects a duplicate another writer appended and sees others' appends after refresh", async () => {
      const location = await fresh();
      const a = await location.open();
      const b = await location.open();
      const event = contractMessageEvent('same');
      await a.append(event);
      await expect(b.append(event)).rejects.toBeInstanceOf(DuplicateEventIdError);
      await appendMessages(a, 3);
      const reader = await location.open();
      await appendMessages(a, 2, 'late');
      expect(await reader.refresh()).toBe(2);
      expect(textOf(await reader.get(-1))).toBe('late1');
      expect(await reader.refresh()).toBe(0);
    });

    it("streams stored then live events, other writers' included, without gap or duplicate", async () => {
      const location = await fresh();
      const writer = await location.open();
      const other = await location.open();
      await appendMessages(writer, 3, 'stored');
      const controller = new AbortController();
      const received: LogEntry[] = [];
      const done = (async () => {
        for await (const entry of writer.subscribe(1, { signal: controller.signal, pollIntervalMs: 10 })) {
          received.push(entry);
          if (received.length === 12) controller.abort();
        }
      })();
      await Promise.all([appendMessages(writer, 5, 'live'), appendMessages(other, 5, 'other')]);
      await done;
      expect(received.map((entry) => entry.index)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      const stored = await (await location.open()).range(1, 13);
      expect(received.map((entry) => entry.event.id)).toEqual(stored.map((event) => event.id));
    });

    it('keeps events of unknown kinds, their JSON unchanged', async () => {
      const log = await (await fresh()).open();
      const id = '0f0e0d0c-0b0a-4908-8706-050403020100';
      const opaque = parseEvent({
        id,
        timestamp: '2030-01-01T00:00:00.000000',
        source: 'agent',
        future_field: 1,
        kind: 'FutureEvent',
      });
      await log.append(opaque);
      const event = await log.get(0);
      expect(event).toMatchObject({ kind: 'OpaqueEvent', opaque_kind: 'FutureEvent', id });
      expect(serializeEvent(event)).toBe(serializeEvent(opaque));
    });
  });
}
