import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { type AnyEvent, isRoundTripSafe, serializeEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { CorruptEventError } from '../src/errors/corrupt-event-error.js';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog, type EventLogOptions } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { createTestBucket } from '../src/testing/test-bucket.js';
import { countingStore } from './helpers/counting-store.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import { s3TestEndpoint } from './helpers/s3-test-endpoint.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-event-log-packs-'));
  roots.push(root);
  return root;
}

async function appendMessages(log: EventLog, count: number): Promise<AnyEvent[]> {
  const events: AnyEvent[] = [];
  for (let i = 0; i < count; i++) {
    const event = userMessageEvent(`message ${i}`);
    await log.append(event);
    events.push(event);
  }
  await log.packsSettled();
  return events;
}

/** What reading the event files alone gives (a fresh instance without packs). */
async function fileRead(store: FileStore, options: EventLogOptions = {}): Promise<AnyEvent[]> {
  return (await EventLog.open(store, { ...options, packs: false })).range(0);
}

function warnings(): { logger: { warn(message: string): void }; messages: string[] } {
  const messages: string[] = [];
  return { logger: { warn: (message) => messages.push(message) }, messages };
}

const packNames = async (store: FileStore): Promise<string[]> => store.list('events/.slots/packs');

describe('EventLog packed read cache', () => {
  it('memory, 3 chunks of 1024: the appender packs each chunk; a fresh reader reads one pack per chunk', async () => {
    const store = createMemoryFileStore();
    const written = await appendMessages(await EventLog.open(store), 3 * 1024);
    expect(await packNames(store)).toEqual([
      'events/.slots/packs/00000.pack',
      'events/.slots/packs/01024.pack',
      'events/.slots/packs/02048.pack',
    ]);
    const counting = countingStore(store);
    const log = await EventLog.open(counting.store);
    counting.reset();
    const events = await log.range(0);
    expect(counting.counts.read).toBe(3);
    expect(events.map((event) => event.id)).toEqual(written.map((event) => event.id));
    expect(events).toEqual(await fileRead(store));
    expect(events.every((event) => Object.isFrozen(event) && isRoundTripSafe(event))).toBe(true);
    expect(events.map(serializeEvent)).toEqual(written.map(serializeEvent));
  });

  it('reads a pack holding non-ASCII text (decoded as UTF-8) and one of ASCII only alike', async () => {
    const store = createMemoryFileStore();
    const appender = await EventLog.open(store, { packs: { chunkSize: 4 } });
    const texts = ['plain ascii', 'café — naïve', 'emoji 😀 and 中文', 'ascii again', 'a', 'b', 'c', 'd'];
    for (const text of texts) await appender.append(userMessageEvent(text));
    await appender.packsSettled();
    const bodies = await Promise.all((await packNames(store)).map(async (path) => store.read(path)));
    // The first chunk holds non-ASCII characters as such; the second is ASCII only.
    expect(bodies.map((body) => [...body].some((character) => character.charCodeAt(0) > 127))).toEqual([true, false]);
    const counting = countingStore(store);
    const log = await EventLog.open(counting.store, { packs: { chunkSize: 4 } });
    counting.reset();
    const events = await log.range(0);
    expect(counting.counts.read).toBe(2);
    expect(events.map(messageText)).toEqual(texts);
    expect(events).toEqual(await fileRead(store));
  });

  it('local fs: a first read from files writes the packs; the second read uses them', async () => {
    const root = await tempRoot();
    const local = createLocalFileStore({ root, durability: 'none' });
    const packs = { chunkSize: 16 };
    await appendMessages(await EventLog.open(local, { packs: false }), 3 * 16 + 5);
    expect(await packNames(local)).toEqual([]);

    const first = countingStore(local);
    const firstLog = await EventLog.open(first.store, { packs });
    first.reset();
    const fromFiles = await firstLog.range(0);
    // One pack read per chunk (missing; the last chunk's 5 events are enough to look), then every event file.
    expect(first.counts.read).toBe(4 + 3 * 16 + 5);
    await firstLog.packsSettled();
    // The 3 complete chunks, and the last one's 5 events (enough for chunks of 16, see packThresholds).
    expect(await packNames(local)).toHaveLength(4);

    const second = countingStore(local);
    const log = await EventLog.open(second.store, { packs });
    second.reset();
    const events = await log.range(0);
    expect(second.counts.read).toBe(4);
    expect(events).toEqual(fromFiles);
    expect(events).toEqual(await fileRead(local));
    const header = JSON.parse((await readFile(join(root, 'events/.slots/packs/00016.pack'), 'utf8')).split('\n')[0]!);
    expect(header).toMatchObject({ format: 'x-event-pack', v: 1, start: 16, count: 16 });
    expect(header.names[0]).toBe(eventFileName(16, events[16]!.id));
  });

  it('close waits for the pack writes in progress: nothing is written after it resolves', async () => {
    const inner = createMemoryFileStore();
    await appendMessages(await EventLog.open(inner, { packs: false }), 40);
    let releaseWrites!: () => void;
    const held = new Promise<void>((resolve) => {
      releaseWrites = resolve;
    });
    const finished: string[] = [];
    const store = Object.create(inner) as FileStore;
    store.write = async (path, data) => {
      await held;
      await inner.write(path, data);
      finished.push(path);
    };
    const log = await EventLog.open(store, { packs: { chunkSize: 16 } });
    await log.range(0);
    let closed = false;
    const closing = log.close().then(() => {
      closed = true;
    });
    // The memory store settles in microtasks: once a macrotask has run, a close that did not wait is done.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    releaseWrites();
    await closing;
    expect(finished.filter((path) => path.includes('/.slots/packs/'))).toHaveLength(3);
    expect(await packNames(inner)).toHaveLength(3);
  });

  it("packs the log's last, incomplete chunk for readers, and rewrites it as it grows", async () => {
    const store = createMemoryFileStore();
    const packs = { chunkSize: 16 };
    const header = async () => JSON.parse((await store.read('events/.slots/packs/00000.pack')).split('\n')[0]!);
    const writer = await EventLog.open(store, { packs });
    const reader = async () => {
      const counting = countingStore(store);
      const log = await EventLog.open(counting.store, { packs });
      counting.reset();
      const events = await log.range(0);
      await log.packsSettled();
      expect(events).toEqual(await fileRead(store));
      return counting.counts.read;
    };
    await appendMessages(writer, 5);
    expect(await reader()).toBe(1 + 5); // no pack yet: one read finds none, then the files
    expect((await header()).count).toBe(5);
    await appendMessages(writer, 2);
    expect(await reader()).toBe(1 + 2); // the pack's 5, then 2 files; grown by 2 < 4: not rewritten
    expect((await header()).count).toBe(5);
    await appendMessages(writer, 3);
    expect(await reader()).toBe(1 + 5);
    expect((await header()).count).toBe(10);
    await appendMessages(writer, 6); // completes the chunk: the appender packs it whole
    expect((await header()).count).toBe(16);
    expect(await reader()).toBe(1);
  });

  it('iterate and subscribe catch up from packs, one read per pack even with no LRU cache', async () => {
    const store = createMemoryFileStore();
    const packs = { chunkSize: 256 };
    const written = await appendMessages(await EventLog.open(store, { packs }), 3 * 256);
    const counting = countingStore(store);
    const log = await EventLog.open(counting.store, { packs, cacheSize: 0 });
    counting.reset();
    const iterated: AnyEvent[] = [];
    for await (const event of log.iterate(0)) iterated.push(event);
    expect(counting.counts.read).toBe(3);
    expect(iterated.map((event) => event.id)).toEqual(written.map((event) => event.id));

    counting.reset();
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const { event } of log.subscribe(0, { signal: controller.signal })) {
      seen.push(event.id);
      if (seen.length === written.length) controller.abort();
    }
    expect(counting.counts.read).toBe(3);
    expect(seen).toEqual(written.map((event) => event.id));
  });

  it('ignores and rewrites a pack whose names disagree with the listing (a foreign event replaced one)', async () => {
    const root = await tempRoot();
    const local = createLocalFileStore({ root, durability: 'none' });
    const packs = { chunkSize: 8 };
    const written = await appendMessages(await EventLog.open(local, { packs }), 3 * 8);
    // A foreign writer (no claims) replaces event 5 by another event at the same index.
    const foreign = userMessageEvent('written by another tool');
    await unlink(join(root, 'events', eventFileName(5, written[5]!.id)));
    await writeFile(join(root, 'events', eventFileName(5, foreign.id)), serializeEvent(foreign));

    const { logger, messages } = warnings();
    const log = await EventLog.open(local, { packs, logger });
    const events = await log.range(0);
    expect(events[5]!.id).toBe(foreign.id);
    expect(events).toEqual(await fileRead(local));
    expect(messages).toEqual([
      expect.stringMatching(/00000\.pack: packed read cache ignored, its names disagree .* index 5/),
    ]);
    await log.packsSettled();
    const header = JSON.parse((await readFile(join(root, 'events/.slots/packs/00000.pack'), 'utf8')).split('\n')[0]!);
    expect(header.names[5]).toBe(eventFileName(5, foreign.id));

    const counting = countingStore(local);
    const again = warnings();
    const reader = await EventLog.open(counting.store, { packs, logger: again.logger });
    counting.reset();
    expect(await reader.range(0)).toEqual(events);
    expect(counting.counts.read).toBe(3);
    expect(again.messages).toEqual([]);
  });

  const damages: [string, (text: string) => string, RegExp][] = [
    ['a flipped byte in the body', (text) => text.replace('message 3', 'massage 3'), /checksum/],
    ['a truncated pack', (text) => text.slice(0, Math.floor(text.length / 2)), /checksum/],
    ['a header cut off', (text) => text.slice(10), /header is not JSON/],
    ['another parser', (text) => text.replace(/"parser":"[^"]*"/, '"parser":"@x/events@0.0.0-old"'), /another parser/],
    ['an empty file', () => '', /no header/],
  ];
  for (const [what, damage, problem] of damages) {
    it(`ignores ${what} and rewrites it`, async () => {
      const store = createMemoryFileStore();
      const packs = { chunkSize: 8 };
      await appendMessages(await EventLog.open(store, { packs }), 2 * 8);
      const path = 'events/.slots/packs/00000.pack';
      const intact = await store.read(path);
      await store.write(path, damage(intact));
      const { logger, messages } = warnings();
      const log = await EventLog.open(store, { packs, logger });
      expect(await log.range(0)).toEqual(await fileRead(store));
      expect(messages).toEqual([expect.stringMatching(problem)]);
      await log.packsSettled();
      expect(await store.read(path)).toBe(intact);
    });
  }

  it('local fs: a reader going chunk by chunk has the next pack read ahead, which is still checked before use', async () => {
    const root = await tempRoot();
    const local = createLocalFileStore({ root, durability: 'none' });
    const packs = { chunkSize: 8 };
    // 40 KB per event: each pack is over 256 KiB, so its bytes come through the thread pool (readRegularFileBatched).
    const written: AnyEvent[] = [];
    const appender = await EventLog.open(local, { packs });
    for (let i = 0; i < 3 * 8; i++) {
      const event = userMessageEvent(`message ${i} ${'x'.repeat(40_000)}`);
      await appender.append(event);
      written.push(event);
    }
    await appender.close();
    const damaged = 'events/.slots/packs/00008.pack';
    const intact = await local.read(damaged);
    expect(intact.length).toBeGreaterThan(256 * 1024);
    await local.write(damaged, intact.replace('message 9 ', 'massage 9 '));
    const batches: string[] = [];
    const store: FileStore = {
      ...local,
      readBatch: (paths) => {
        batches.push(...paths.filter((path) => path.endsWith('.pack')));
        return local.readBatch!(paths);
      },
    };
    const { logger, messages } = warnings();
    const log = await EventLog.open(store, { packs, logger });
    // A range that stops inside a chunk reads no further.
    expect((await log.range(0, 5)).map((event) => event.id)).toEqual(written.slice(0, 5).map((event) => event.id));
    expect(batches).toEqual(['events/.slots/packs/00000.pack']);
    const fresh = await EventLog.open(store, { packs, logger });
    batches.length = 0;
    const first = await fresh.range(0, 8);
    expect(batches).toEqual(['events/.slots/packs/00000.pack', damaged]);
    const second = await fresh.range(8, 16);
    const third = await fresh.range(16, 24);
    // Each pack read once: the damaged one ahead of its turn, and refused at its turn like any damaged pack.
    expect(batches).toEqual(['events/.slots/packs/00000.pack', damaged, 'events/.slots/packs/00016.pack']);
    expect(messages).toEqual([expect.stringMatching(/00008\.pack.*checksum/)]);
    expect([...first, ...second, ...third]).toEqual(await fileRead(local));
    expect([...first, ...second, ...third].map(serializeEvent)).toEqual(written.map(serializeEvent));
    await fresh.close();
    expect(await local.read(damaged)).toBe(intact);
  });

  it('rangeSettled and verifyChain read the files: a damaged event file is reported though its chunk is packed', async () => {
    const store = createMemoryFileStore();
    const packs = { chunkSize: 4 };
    const written = await appendMessages(await EventLog.open(store, { packs }), 8);
    await store.write(`events/${eventFileName(2, written[2]!.id)}`, '{"broken"');
    const log = await EventLog.open(store, { packs });
    const settled = await log.rangeSettled(0);
    expect(settled[2]!.error).toBeInstanceOf(CorruptEventError);
    expect(settled.filter((entry) => entry.error !== undefined)).toHaveLength(1);
    expect((await log.verifyChain()).status).toBe('tampered');
    // range is served from the pack: the content as it was validated (see the README).
    const fresh = await EventLog.open(store, { packs });
    expect((await fresh.range(0))[2]!.id).toBe(written[2]!.id);
  });

  it('verifyChain checks that every pack readers would use holds the event files bytes', async () => {
    const store = createMemoryFileStore();
    const packs = { chunkSize: 4 };
    const written = await appendMessages(await EventLog.open(store, { packs }), 8);
    expect((await verifyEventChain(store)).status).toBe('verified');
    // A pack forged with a valid checksum and the right names: readers would serve it, so verify must not pass.
    const path = 'events/.slots/packs/00000.pack';
    const [headerLine, body] = (await store.read(path)).split('\n') as [string, string];
    const forgedBody = body.replace('message 2', 'forged 2');
    const header = { ...JSON.parse(headerLine), crc32: crc32(Buffer.from(forgedBody)) };
    await store.write(path, `${JSON.stringify(header)}\n${forgedBody}`);
    const served = await (await EventLog.open(store, { packs })).range(0);
    expect(messageText(served[2]!)).toBe('forged 2');
    const report = await verifyEventChain(store);
    expect(report.status).toBe('tampered');
    expect(report.problem).toMatchObject({ kind: 'altered', index: 2, id: written[2]!.id });
    expect(report.problem?.message).toMatch(/packed read cache .*00000\.pack/);
    // A pack readers ignore (names of another log) is not a problem.
    await store.write(
      path,
      `${JSON.stringify({ ...header, names: header.names.map(() => 'event-00000-x.json') })}\n${forgedBody}`,
    );
    expect((await verifyEventChain(store)).status).toBe('verified');
    // Nor one whose first name alone is another log's: readers check every name, so verify does.
    const firstOther = header.names.map((name: string, k: number) => (k === 0 ? 'event-00000-x.json' : name));
    await store.write(path, `${JSON.stringify({ ...header, names: firstOther })}\n${forgedBody}`);
    expect(messageText((await (await EventLog.open(store, { packs })).range(0))[2]!)).toBe('message 2');
    expect((await verifyEventChain(store)).status).toBe('verified');
  });

  it('verifyChain accepts packs of events whose stored text is kept as a string (written by a foreign writer)', async () => {
    const store = createMemoryFileStore();
    const events = [userMessageEvent('a'), userMessageEvent('b')];
    for (const [index, event] of events.entries()) {
      await store.write(
        `events/${eventFileName(index, event.id)}`,
        JSON.stringify(JSON.parse(serializeEvent(event)), null, 1),
      );
    }
    const log = await EventLog.open(store, { packs: { chunkSize: 2 } });
    await log.range(0);
    await log.packsSettled();
    const body = (await store.read('events/.slots/packs/00000.pack')).split('\n').slice(1).join('\n');
    expect(body.startsWith('["{')).toBe(true);
    expect((await verifyEventChain(store)).status).toBe('unchained');
  });

  it('uses packs but never writes one with packs: { write: false }', async () => {
    const store = createMemoryFileStore();
    const packs = { chunkSize: 8 };
    await appendMessages(await EventLog.open(store, { packs }), 2 * 8 + 6);
    await store.delete('events/.slots/packs/00008.pack');
    const counting = countingStore(store);
    const log = await EventLog.open(counting.store, { packs: { ...packs, write: false } });
    counting.reset();
    const events = await log.range(0);
    await log.packsSettled();
    expect(counting.counts.write).toBe(0);
    expect(counting.counts.read).toBe(1 + 1 + 8 + 1 + 6); // pack 0, no pack 8 and its files, no tail pack and its files
    expect(events).toEqual(await fileRead(store));
    expect(await packNames(store)).toEqual(['events/.slots/packs/00000.pack']);
  });

  it('does not write packs with packs: false', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store, { packs: false });
    await appendMessages(log, 1024);
    await log.range(0);
    await log.packsSettled();
    expect(await packNames(store)).toEqual([]);
  });

  it('S3 (moto): a second read of a 3-chunk log reads one object per chunk', async () => {
    const bucket = await createTestBucket(s3TestEndpoint());
    const s3 = bucket.createStore({ prefix: `packs-${randomBytes(4).toString('hex')}/` });
    const packs = { chunkSize: 4 };
    await appendMessages(await EventLog.open(s3, { packs }), 3 * 4);
    const counting = countingStore(s3);
    const log = await EventLog.open(counting.store, { packs });
    counting.reset();
    const events = await log.range(0);
    expect(counting.counts.read).toBe(3);
    expect(events).toEqual(await fileRead(s3));
  });
});
