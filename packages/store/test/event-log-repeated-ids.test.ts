import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorruptEventError } from '../src/errors/corrupt-event-error.js';
import { encodePack } from '../src/event-log/pack-format.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { createS3FileStore } from '../src/s3-file-store.js';
import { createTestBucket, createTestS3Client, type TestBucket } from '../src/testing/test-bucket.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import { s3TestEndpoint } from './helpers/s3-test-endpoint.js';

const base = mkdtempSync(join(tmpdir(), 'x-eventlog-repeated-ids-'));
let counter = 0;
let bucket: TestBucket;
beforeAll(async () => {
  bucket = await createTestBucket(s3TestEndpoint());
});
afterAll(() => rm(base, { recursive: true, force: true, maxRetries: 5 }));

const backends: [string, () => FileStore][] = [
  ['memory', () => createMemoryFileStore()],
  ['local', () => createLocalFileStore({ root: join(base, `log-${++counter}`), durability: 'none' })],
  [
    'S3',
    () =>
      createS3FileStore({
        bucket: bucket.bucket,
        prefix: `repeated-${randomBytes(4).toString('hex')}/`,
        client: createTestS3Client(s3TestEndpoint()),
      }),
  ],
];

/** A log of m0…m3, then an event file at index 4 that repeats event 1 (its id and content), as a foreign writer could leave. */
async function logWithRepeatedId(store: FileStore) {
  const writer = await EventLog.open(store);
  for (let i = 0; i < 4; i++) await writer.append(userMessageEvent(`m${i}`));
  await writer.close();
  const names = (await store.list('events/')).filter((path) => /\/event-\d+-/.test(path)).sort();
  const repeated = await store.read(names[1]!);
  const id = JSON.parse(repeated).id as string;
  const copy = `events/event-00004-${id}.json`;
  await store.write(copy, repeated);
  return { id, copy, first: names[1]! };
}

/**
 * The pack of chunk 0 (chunks of 8) as a version before the repeated-id check wrote it for the log of
 * `logWithRepeatedId`: its header's names are the log's five, and its element 4 is event 1 again, as it was read
 * from the copy's file then. The names and checksum match, so a reader would use it.
 */
async function writeOldPack(store: FileStore): Promise<void> {
  const files = await EventLog.open(store, { packs: false, rollForward: false, nameIndex: { write: false } });
  const events = await files.range(0, 4);
  const names = Array.from({ length: 5 }, (_, index) => {
    const path = `events/event-${String(index).padStart(5, '0')}-${index === 4 ? events[1]!.id : events[index]!.id}.json`;
    return path.slice('events/'.length);
  });
  await store.write('events/.slots/packs/00000.pack', encodePack({ start: 0, names, events: [...events, events[1]!] }));
}

async function collect<T>(items: AsyncIterable<T>, count: number): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) {
    collected.push(item);
    if (collected.length === count) break;
  }
  return collected;
}

describe.each(backends)('EventLog on %s with an event file repeating an earlier id', (_name, makeStore) => {
  it('reads the repeat as a CorruptEventError naming both files, never as the event a second time', async () => {
    const store = makeStore();
    const { id, copy, first } = await logWithRepeatedId(store);
    const log = await EventLog.open(store, { packs: { write: false } });
    expect(log.length).toBe(5);
    const entries = await log.rangeSettled(0);
    expect(entries.map((entry) => (entry.event ? messageText(entry.event) : entry.error.code))).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'corrupt_event',
    ]);
    const error = await log.get(4).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptEventError);
    expect((error as Error).message).toContain(store.describe(copy));
    expect((error as Error).message).toContain(store.describe(first));
    expect((error as Error).message).toContain(`id '${id}'`);
    await expect(log.range(0)).rejects.toBeInstanceOf(CorruptEventError);
    expect(messageText(await log.getById(id))).toBe('m1');
    await log.append(userMessageEvent('m5'));
    expect(messageText(await log.get(5))).toBe('m5');
    await log.close();
  });

  it('ends the log before a slot claim repeating an earlier id, warns naming it, and refuses to append over it', async () => {
    const store = makeStore();
    const writer = await EventLog.open(store);
    for (let i = 0; i < 3; i++) await writer.append(userMessageEvent(`m${i}`));
    await writer.close();
    // The claim of event 1 copied to the next free slot: a writer's claim at 3 that repeats event 1.
    await store.write('events/.slots/00003.json', await store.read('events/.slots/00001.json'));
    const warnings: string[] = [];
    const log = await EventLog.open(store, { packs: { write: false }, logger: { warn: (m) => warnings.push(m) } });
    expect(log.length).toBe(3);
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2']);
    expect(warnings.join('\n')).toContain(`${store.describe('events/.slots/00003.json')}: its id`);
    expect(await log.refresh()).toBe(0);
    const error = await log.append(userMessageEvent('m3')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptEventError);
    expect((error as Error).message).toContain(store.describe('events/.slots/00003.json'));
    expect(log.length).toBe(3);
    await log.close();
  });

  it('reads a repeat that a pack written before holds as the same CorruptEventError, in range, iterate and subscribe', async () => {
    const store = makeStore();
    const { id, copy, first } = await logWithRepeatedId(store);
    await writeOldPack(store);
    const log = await EventLog.open(store, { packs: { chunkSize: 8 } });
    expect((await log.range(0, 4)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3']);
    for (const read of [
      () => log.range(0),
      () => log.range(2, 5),
      () => collect(log.iterate(0), 5),
      () => collect(log.subscribe(0), 5),
    ]) {
      const error = await read().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CorruptEventError);
      expect((error as Error).message).toContain(store.describe(copy));
      expect((error as Error).message).toContain(store.describe(first));
      expect((error as Error).message).toContain(`id '${id}'`);
    }
    expect(
      (await log.rangeSettled(0)).map((entry) => (entry.event ? messageText(entry.event) : entry.error.code)),
    ).toEqual(['m0', 'm1', 'm2', 'm3', 'corrupt_event']);
    await log.close();
  });
});
