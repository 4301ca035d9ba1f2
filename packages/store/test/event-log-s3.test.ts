import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry } from '../src/event-log/subscription.js';
import { EventLog } from '../src/event-log.js';
import { createS3FileStore } from '../src/s3-file-store.js';
import { createTestBucket, createTestS3Client, type TestBucket } from '../src/testing/test-bucket.js';
import { userMessageEvent } from './helpers/events.js';
import { s3TestEndpoint } from './helpers/s3-test-endpoint.js';
import { verifyLog } from './helpers/verify-log.js';

const endpoint = s3TestEndpoint();
let bucket: TestBucket;

beforeAll(async () => {
  bucket = await createTestBucket(endpoint);
});

/** A store on `prefix` with a client of its own, as a separate machine would have. */
function separateStore(prefix: string) {
  return createS3FileStore({ bucket: bucket.bucket, prefix, client: createTestS3Client(endpoint) });
}

describe('EventLog on S3 with concurrent writers', () => {
  it('gives 4 writers with separate clients distinct contiguous indices, seen gap-free by a subscriber', async () => {
    const prefix = `event-log-${randomBytes(4).toString('hex')}/`;
    const writers = await Promise.all([0, 1, 2, 3].map(() => EventLog.open(separateStore(prefix))));
    const reader = await EventLog.open(separateStore(prefix));
    const perWriter = 15;
    const total = writers.length * perWriter;
    const controller = new AbortController();
    const seen = (async () => {
      const entries: LogEntry[] = [];
      for await (const entry of reader.subscribe(0, { signal: controller.signal, pollIntervalMs: 20 })) {
        entries.push(entry);
        if (entries.length === total) controller.abort();
      }
      return entries;
    })();

    const acknowledged = new Map<number, string>();
    await Promise.all(
      writers.map(async (log, w) => {
        for (let i = 0; i < perWriter; i++) {
          const event = userMessageEvent(`w${w} ${i}`);
          const index = await log.append(event);
          expect(acknowledged.has(index), `index ${index} given twice`).toBe(false);
          acknowledged.set(index, event.id);
        }
      }),
    );
    expect(acknowledged.size).toBe(total);
    const log = await verifyLog(separateStore(prefix), acknowledged);
    expect(log.length).toBe(total);

    const entries = await seen;
    expect(entries.map((entry) => entry.index)).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(entries.map((entry) => entry.event.id)).toEqual(entries.map((entry) => acknowledged.get(entry.index)));
  }, 120_000);

  it('lets exactly one of several writers racing with the same expectedIndex win', async () => {
    const prefix = `event-log-${randomBytes(4).toString('hex')}/`;
    const writers = await Promise.all([0, 1, 2, 3, 4].map(() => EventLog.open(separateStore(prefix))));
    const outcomes = await Promise.allSettled(
      writers.map((log, w) => log.append(userMessageEvent(`racer ${w}`), { expectedIndex: 0 })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect(outcome.reason).toMatchObject({ code: 'append_conflict', expectedIndex: 0, actualIndex: 1 });
    }
    expect((await verifyLog(separateStore(prefix))).length).toBe(1);
  }, 120_000);
});

/**
 * A store on a fresh prefix whose event objects' PutObjects wait, while `held` is true, until `release()`; claims
 * never wait. `eventObjects()` lists the event objects stored so far.
 */
function holdingEventObjects(options: { held: boolean }) {
  const prefix = `event-log-${randomBytes(4).toString('hex')}/`;
  const inner = separateStore(prefix);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const store = Object.create(inner) as typeof inner;
  store.write = async (path, data) => {
    if (options.held && /\/event-\d+-/.test(path)) await gate;
    return inner.write(path, data);
  };
  const eventObjects = async () => (await inner.list('events')).filter((path) => path.includes('/event-'));
  return { prefix, inner, store, release, eventObjects };
}

describe('EventLog on S3: an append waits for its claim, not for its event object', () => {
  it('resolves once the claim is stored; readers get the event from the claim until the object lands; close waits for it', async () => {
    // Event objects are held back until released; claims are not.
    const { prefix, inner, store, release, eventObjects } = holdingEventObjects({ held: true });
    const log = await EventLog.open(store);
    const events = [0, 1, 2].map((i) => userMessageEvent(`held ${i}`));
    for (const [index, event] of events.entries()) expect(await log.append(event)).toBe(index);
    expect(await eventObjects()).toEqual([]);

    const reader = await EventLog.open(separateStore(prefix), { rollForward: false });
    expect((await reader.range(0)).map((event) => event.id)).toEqual(events.map((event) => event.id));

    let closed = false;
    const closing = log.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(await eventObjects()).toHaveLength(3);
    await verifyLog(inner, new Map(events.map((event, index) => [index, event.id])));
  });

  it('with awaitEventFiles, an append resolves only once its event object is stored', async () => {
    const holding = { held: false };
    const { store, release, eventObjects } = holdingEventObjects(holding);
    const log = await EventLog.open(store, { awaitEventFiles: true });
    await log.append(userMessageEvent('first'));
    holding.held = true;
    let resolved = false;
    const appending = log.append(userMessageEvent('second')).then(() => {
      resolved = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(resolved).toBe(false);
    expect(await eventObjects()).toHaveLength(1);
    release();
    await appending;
    expect(await eventObjects()).toHaveLength(2);
    await log.close();
  });
});
