import { describe, expect, it } from 'vitest';
import { messageText, userMessageEvent } from '../../test/helpers/events.js';
import { EventLog } from '../event-log.js';
import { createMemoryFileStore } from '../memory-file-store.js';
import type { LogEntry } from './subscription.js';

async function collect(iterable: AsyncIterable<LogEntry>, count: number, controller: AbortController) {
  const entries: LogEntry[] = [];
  for await (const entry of iterable) {
    entries.push(entry);
    if (entries.length === count) controller.abort();
  }
  return entries;
}

describe('EventLog.subscribe', () => {
  it('yields the stored events from an index, then live appends, and ends on abort', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    for (let i = 0; i < 5; i++) await log.append(userMessageEvent(`s${i}`));
    const controller = new AbortController();
    const done = collect(log.subscribe(2, { signal: controller.signal }), 6, controller);
    for (let i = 0; i < 3; i++) await log.append(userMessageEvent(`live${i}`));
    const entries = await done;
    expect(entries.map((entry) => entry.index)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(entries.map((entry) => messageText(entry.event))).toEqual(['s2', 's3', 's4', 'live0', 'live1', 'live2']);
  });

  it('counts a negative start from the end', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    for (let i = 0; i < 4; i++) await log.append(userMessageEvent(`s${i}`));
    const controller = new AbortController();
    const entries = await collect(log.subscribe(-1, { signal: controller.signal }), 1, controller);
    expect(entries.map((entry) => entry.index)).toEqual([3]);
  });

  it('starts at the first event when a negative start reaches back past it', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    for (let i = 0; i < 4; i++) await log.append(userMessageEvent(`s${i}`));
    for (const from of [-4, -10]) {
      const controller = new AbortController();
      const entries = await collect(log.subscribe(from, { signal: controller.signal }), 3, controller);
      expect(entries.map((entry) => entry.index)).toEqual([0, 1, 2]);
    }
  });

  it('has no gap and no duplicate while this instance and another one append concurrently', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store);
    const other = await EventLog.open(store);
    const total = 120;
    const subscribe = (): Promise<LogEntry[]> => {
      const controller = new AbortController();
      return collect(log.subscribe(0, { signal: controller.signal, pollIntervalMs: 5 }), total, controller);
    };
    // One subscriber before any append, the others joining while appends are in flight.
    const subscribers = [subscribe()];
    const appends: Promise<number>[] = [];
    for (let i = 0; i < total / 2; i++) {
      appends.push(log.append(userMessageEvent(`here${i}`)));
      appends.push(other.append(userMessageEvent(`there${i}`)));
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      if (i === 15 || i === 40) subscribers.push(subscribe());
    }
    await Promise.all(appends);
    for (const entries of await Promise.all(subscribers)) {
      expect(entries.map((entry) => entry.index)).toEqual(Array.from({ length: total }, (_, i) => i));
      expect(new Set(entries.map((entry) => entry.event.id)).size).toBe(total);
    }
  });

  it('sees another writer’s appends by polling', async () => {
    const store = createMemoryFileStore();
    const reader = await EventLog.open(store);
    const writer = await EventLog.open(store);
    const controller = new AbortController();
    const done = collect(reader.subscribe(0, { signal: controller.signal, pollIntervalMs: 5 }), 2, controller);
    await writer.append(userMessageEvent('a'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writer.append(userMessageEvent('b'));
    expect((await done).map((entry) => messageText(entry.event))).toEqual(['a', 'b']);
  });

  it('delivers to a listener in order until stopped', async () => {
    const log = await EventLog.open(createMemoryFileStore());
    await log.append(userMessageEvent('first'));
    const seen: number[] = [];
    let stop = (): void => {};
    const reachedThree = new Promise<void>((resolve) => {
      stop = log.listen(0, async (entry) => {
        seen.push(entry.index);
        if (entry.index === 2) resolve();
      });
    });
    await log.append(userMessageEvent('second'));
    await log.append(userMessageEvent('third'));
    await reachedThree;
    stop();
    await log.append(userMessageEvent('after stop'));
    // A listener started now gets the event appended after the stop: by then the stopped one would have too.
    await new Promise<void>((resolve) => {
      const later = log.listen(3, async () => {
        later();
        resolve();
      });
    });
    expect(seen).toEqual([0, 1, 2]);
  });
});
