import { randomBytes } from 'node:crypto';
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
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { createS3FileStore } from '../src/s3-file-store.js';
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
});
