import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogGapError } from '../src/errors/log-gap-error.js';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { fenceEventLog } from '../src/lease/fenced-event-log.js';
import { createFileStoreLeases } from '../src/lease/file-store-leases.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { createS3FileStore } from '../src/s3-file-store.js';
import { createSigningEventLog } from '../src/signing/signing-event-log.js';
import { createTestBucket, createTestS3Client, type TestBucket } from '../src/testing/test-bucket.js';
import { messageText, userMessageEvent } from './helpers/events.js';
import { s3TestEndpoint } from './helpers/s3-test-endpoint.js';

const base = mkdtempSync(join(tmpdir(), 'x-eventlog-gap-'));
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
        prefix: `gap-${randomBytes(4).toString('hex')}/`,
        client: createTestS3Client(s3TestEndpoint()),
      }),
  ],
];

describe.each(backends)('EventLog on %s with event files past a missing index', (_name, makeStore) => {
  it('refuses appends with LogGapError until the gap is filled, so no event is inserted before the files past it', async () => {
    const store = makeStore();
    // A reference-style directory (event files, no slot claims) whose file 2 is gone.
    const events = [0, 1, 2, 3].map((i) => userMessageEvent(`m${i}`));
    for (const [index, event] of events.entries()) {
      if (index !== 2) await store.write(`events/${eventFileName(index, event.id)}`, serializeEvent(event));
    }
    const log = await EventLog.open(store);
    expect(log.length).toBe(2);
    const error = await log.append(userMessageEvent('new')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LogGapError);
    expect(error).toMatchObject({ code: 'log_gap', missingIndex: 2, filesPastGap: 1 });
    expect((error as Error).message).toContain(store.describe('events'));
    await expect(log.appendMany([userMessageEvent('batch')])).rejects.toBeInstanceOf(LogGapError);
    expect(await store.exists('events/.slots/00002.json')).toBe(false);
    expect((await store.list('events/')).filter((path) => path.includes('event-00002-'))).toEqual([]);

    // Restored, the gap is gone: the relist finds it and appends follow the files that were past it.
    await store.write(`events/${eventFileName(2, events[2]!.id)}`, serializeEvent(events[2]!));
    expect(await log.refresh({ relist: true })).toBe(2);
    expect(await log.append(userMessageEvent('m4'))).toBe(4);
    expect((await log.range(0)).map(messageText)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    await log.close();
  });

  it('ends the log at the gap only when asked: setAsidePastGap moves the files past it with their claims aside, then appends go on', async () => {
    const store = makeStore();
    const writer = await EventLog.open(store);
    for (let i = 0; i < 5; i++) await writer.append(userMessageEvent(`m${i}`));
    await writer.close();
    // Event 2 lost with its claim (and, on the local store, the staged body that is its file's second name).
    const lost = [...(await store.list('events')), ...(await store.list('events/.slots'))].filter((path) =>
      /(?:event-00002-[^/]*|\/00002)\.json$/.test(path),
    );
    for (const path of lost) await store.delete(path);
    const pastGap = (await store.list('events')).filter((path) => /event-0000[34]-/.test(path));
    const before = await Promise.all(pastGap.map((path) => store.read(path)));

    const log = await EventLog.open(store);
    expect(log.gap).toEqual({ missingIndex: 2, filesPastGap: 2 });
    await expect(log.append(userMessageEvent('refused'))).rejects.toBeInstanceOf(LogGapError);
    const moved = await log.setAsidePastGap();
    expect(moved).toEqual({ missingIndex: 2, movedTo: 'events-past-gap-00002', eventFiles: pastGap });
    // Kept, byte for byte, beside the log; nothing of them is left in it.
    const kept = pastGap.map((path) => path.replace(/^events\//, 'events-past-gap-00002/'));
    expect(await Promise.all(kept.map((path) => store.read(path)))).toEqual(before);
    expect(await store.exists('events-past-gap-00002/.slots/00003.json')).toBe(true);
    expect(await store.exists('events/.slots/00003.json')).toBe(false);
    expect(log.gap).toBeUndefined();
    expect(await log.setAsidePastGap()).toBeUndefined();

    // The appends take 2 and 3 afresh: the old claim at 3 is not adopted as the second one's.
    expect(await log.append(userMessageEvent('n2'))).toBe(2);
    expect(await log.append(userMessageEvent('n3'))).toBe(3);
    await log.close();
    const reopened = await EventLog.open(store);
    expect((await reopened.range(0)).map(messageText)).toEqual(['m0', 'm1', 'n2', 'n3']);
    expect(reopened.gap).toBeUndefined();
    await reopened.close();
  });

  it('tells its gap through the signing and lease wrappers, so a caller refuses before recording anything', async () => {
    const store = makeStore();
    const events = [0, 1, 2, 3].map((i) => userMessageEvent(`m${i}`));
    for (const [index, event] of events.entries()) {
      if (index !== 2) await store.write(`events/${eventFileName(index, event.id)}`, serializeEvent(event));
    }
    const log = await EventLog.open(store);
    const signer = generateKeyPairSync('ed25519').privateKey;
    const signing = createSigningEventLog(log, { store, dir: log.dir, signer });
    const lease = await createFileStoreLeases(store).acquire('gap-conversation');
    const wrapped = fenceEventLog(signing, lease);
    expect(signing.gap).toEqual({ missingIndex: 2, filesPastGap: 1 });
    expect(wrapped.gap).toEqual({ missingIndex: 2, filesPastGap: 1 });
    await store.write(`events/${eventFileName(2, events[2]!.id)}`, serializeEvent(events[2]!));
    await log.refresh({ relist: true });
    expect(wrapped.gap).toBeUndefined();
    await lease.release();
    await log.close();
  });
});
