import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { type AnyEvent, serializeEvent } from '@x/events';
import { eventFileName } from '../src/event-log/file-names.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { startMotoServer } from '../src/testing/moto-server.js';
import { createTestBucket, type TestBucket } from '../src/testing/test-bucket.js';
import {
  APPENDS,
  alternate,
  FSYNC_APPENDS,
  ms,
  perSecond,
  ROUNDS,
  ratio,
  row,
  S3_APPENDS,
  S3_LATENCY_APPENDS,
  S3_ROUND_TRIP_MS,
  timeAppends,
  timeBatchedAppends,
  timeFloorWrites,
} from './bench-harness.js';
import { median } from './bench-utils.js';
import { scenarioEvents } from './event-shapes.js';
import { startLatencyProxy } from './latency-proxy.js';

export async function benchAppends(scratch: string): Promise<string> {
  console.log(
    `## append (events shaped as in performance.md; median of ${ROUNDS} after a warm-up of each side, alternating with the floor)`,
  );
  const events = [...scenarioEvents(APPENDS)];

  const memory = await alternate(
    () => timeAppends(createMemoryFileStore(), events),
    async () => {
      const store = createMemoryFileStore();
      const started = performance.now();
      for (const [i, event] of events.entries())
        await store.write(`f/${eventFileName(i, event.id)}`, serializeEvent(event));
      return performance.now() - started;
    },
  );
  row(
    `memory, ${APPENDS}`,
    perSecond(APPENDS, memory.ours.total),
    `floor store.write ${perSecond(APPENDS, memory.floor)}`,
    `ratio ${ratio(memory.ours.total, memory.floor)}`,
    '(an append is two store writes, the claim and the event file, plus the chain hash; the floor is one write)',
  );

  const noneRoot = (round: number): string => join(scratch, `append-none-${round}`);
  const none = await alternate(
    (round) => timeAppends(createLocalFileStore({ root: noneRoot(round), durability: 'none' }), events),
    (round) => timeFloorWrites(join(scratch, `floor-none-${round}`), events, false),
  );
  const storeWrite = await timeStoreWrites(
    createLocalFileStore({ root: join(scratch, 'store-write'), durability: 'none' }),
    events,
  );
  row(
    `local fs, durability none, ${APPENDS}`,
    perSecond(APPENDS, none.ours.total),
    `floor fs.writeFile ${perSecond(APPENDS, none.floor)}`,
    `ratio ${ratio(none.ours.total, none.floor)}`,
    `per append: first 10% ${ms(none.ours.first)}, last 10% ${ms(none.ours.last)} (reference 63.6 ms at 10k)`,
  );
  // The store's 'none' calls are synchronous: the floor for that kind of call, measured the same way.
  const syncRuns: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const time = await timeFloorWrites(join(scratch, `floor-sync-${round}`), events, false, true);
    if (round > 0) syncRuns.push(time); // round 0 is the warm-up, as for every side
  }
  const syncFloor = median(syncRuns);
  row(
    "  floor with fs.writeFileSync (synchronous, as the local store's none calls are)",
    perSecond(APPENDS, syncFloor),
    `ours ${ratio(none.ours.total, syncFloor)} of it`,
  );
  row(
    '  for scale: one FileStore.write per event (half the protocol)',
    perSecond(APPENDS, storeWrite),
    `ratio to floor ${ratio(storeWrite, none.floor)}`,
  );

  const fsyncEvents = events.slice(0, FSYNC_APPENDS);
  const fsync = await alternate(
    (round) =>
      timeAppends(
        createLocalFileStore({ root: join(scratch, `append-fsync-${round}`), durability: 'fsync' }),
        fsyncEvents,
      ),
    (round) => timeFloorWrites(join(scratch, `floor-fsync-${round}`), fsyncEvents, true),
  );
  row(
    `local fs, durability fsync, ${FSYNC_APPENDS}`,
    perSecond(FSYNC_APPENDS, fsync.ours.total),
    `floor writeFile+fsync(file, dir) ${perSecond(FSYNC_APPENDS, fsync.floor)}`,
    `ratio ${ratio(fsync.ours.total, fsync.floor)}`,
    `per append: first 10% ${ms(fsync.ours.first)}, last 10% ${ms(fsync.ours.last)}`,
    '(an append waits for its claim: a file and a directory fsync; its event file is written unsynced)',
  );
  // The local store's small calls are synchronous, its fsyncs not: the floor for that kind of call.
  const syncFsync = await alternate(
    (round) =>
      timeAppends(
        createLocalFileStore({ root: join(scratch, `append-fsync-b-${round}`), durability: 'fsync' }),
        fsyncEvents,
      ),
    (round) => timeFloorWrites(join(scratch, `floor-fsync-sync-${round}`), fsyncEvents, true, true),
  );
  row(
    "  floor with synchronous open/write/close, fsyncs through the pool (as the local store's calls are)",
    perSecond(FSYNC_APPENDS, syncFsync.floor),
    `ours ${perSecond(FSYNC_APPENDS, syncFsync.ours.total)}, ratio ${ratio(syncFsync.ours.total, syncFsync.floor)}`,
  );
  // With awaitEventFiles the event file and its directory are fsynced too: what that guarantee costs.
  const strict = await alternate(
    (round) =>
      timeAppends(
        createLocalFileStore({ root: join(scratch, `append-fsync-strict-${round}`), durability: 'fsync' }),
        fsyncEvents,
        { awaitEventFiles: true },
      ),
    (round) => timeFloorWrites(join(scratch, `floor-fsync-strict-${round}`), fsyncEvents, true),
  );
  row(
    `local fs, durability fsync, awaitEventFiles, ${FSYNC_APPENDS}`,
    perSecond(FSYNC_APPENDS, strict.ours.total),
    `floor writeFile+fsync(file, dir) ${perSecond(FSYNC_APPENDS, strict.floor)}`,
    `ratio ${ratio(strict.ours.total, strict.floor)}`,
    '(the event file and events/ fsynced too: two files and two directories per append)',
  );
  // The same events two at a time (a step's stats update and its action, as Conversation writes them).
  const batched = await alternate(
    (round) =>
      timeBatchedAppends(
        createLocalFileStore({ root: join(scratch, `append-many-fsync-${round}`), durability: 'fsync' }),
        fsyncEvents,
        2,
      ).then((total) => ({ total })),
    (round) => timeFloorWrites(join(scratch, `floor-many-fsync-${round}`), fsyncEvents, true),
  );
  row(
    `local fs, durability fsync, appendMany of 2, ${FSYNC_APPENDS}`,
    perSecond(FSYNC_APPENDS, batched.ours.total),
    `floor writeFile+fsync(file, dir) ${perSecond(FSYNC_APPENDS, batched.floor)}`,
    `ratio ${ratio(batched.ours.total, batched.floor)}`,
    '(one walk and one round of fsyncs per pair of events)',
  );

  const moto = await startMotoServer();
  try {
    const bucket = await createTestBucket(moto.endpoint);
    const s3Events = events.slice(0, S3_APPENDS);
    const s3 = await alternate(
      (round) => timeAppends(bucket.createStore({ prefix: `bench-${round}/` }), s3Events),
      (round) => timePutObjects(bucket, `floor-${round}/`, s3Events),
    );
    row(
      `S3 (moto on 127.0.0.1), ${S3_APPENDS}`,
      perSecond(S3_APPENDS, s3.ours.total),
      `floor PutObject ${perSecond(S3_APPENDS, s3.floor)}`,
      `ratio ${ratio(s3.ours.total, s3.floor)}`,
      '(moto is CPU-bound here: it serves both requests of every append, the claim and the event object)',
    );
    await timeS3WithRoundTrip(moto.endpoint, events.slice(0, S3_LATENCY_APPENDS));
  } finally {
    await moto.stop();
  }
  return noneRoot(1);
}

/** The S3 floor: one PutObject per event, in turn, under `prefix`; total ms. */
async function timePutObjects(bucket: TestBucket, prefix: string, events: readonly AnyEvent[]): Promise<number> {
  const started = performance.now();
  for (const [i, event] of events.entries()) {
    await bucket.client.send(
      new PutObjectCommand({
        Bucket: bucket.bucket,
        Key: `${prefix}${eventFileName(i, event.id)}`,
        Body: serializeEvent(event),
      }),
    );
  }
  return performance.now() - started;
}

/**
 * S3 as it is used for real: every request pays a network round trip. The same moto, behind a loopback proxy
 * that delays each direction by half the round trip; ours (close included, so the event objects an append
 * does not wait for are counted) against one PutObject per event through the same proxy.
 */
async function timeS3WithRoundTrip(motoEndpoint: string, s3Events: readonly AnyEvent[]): Promise<void> {
  const proxy = await startLatencyProxy(motoEndpoint, S3_ROUND_TRIP_MS / 2);
  try {
    const bucket = await createTestBucket(proxy.endpoint);
    const result = await alternate(
      (round) => timeAppends(bucket.createStore({ prefix: `rtt-bench-${round}/` }), s3Events),
      (round) => timePutObjects(bucket, `rtt-floor-${round}/`, s3Events),
    );
    row(
      `S3 with a ${S3_ROUND_TRIP_MS} ms round trip (moto behind a loopback delay proxy), ${s3Events.length}`,
      perSecond(s3Events.length, result.ours.total),
      `floor PutObject ${perSecond(s3Events.length, result.floor)}`,
      `ratio ${ratio(result.ours.total, result.floor)}`,
      '(an append waits for its claim; its event object follows, at most 4 outstanding)',
    );
  } finally {
    await proxy.close();
  }
}

/** One `FileStore.write` per event, no EventLog: separates the backend's cost from the protocol's. */
async function timeStoreWrites(store: FileStore, events: readonly AnyEvent[]): Promise<number> {
  const started = performance.now();
  for (const [i, event] of events.entries())
    await store.write(`events/${eventFileName(i, event.id)}`, serializeEvent(event));
  return performance.now() - started;
}
