/**
 * EventLog benchmark: `pnpm --filter @x/store bench` (tsx bench/event-log.bench.ts).
 *
 * Each figure is printed next to its floor (the same bytes written the plainest way, with the same
 * durability policy) and next to the Python reference's figure from performance.md. Sizes can be
 * changed with environment variables (BENCH_APPENDS, BENCH_FSYNC_APPENDS, BENCH_S3_APPENDS,
 * BENCH_OPEN_EVENTS); the defaults keep a run under about three minutes on 2 cores. BENCH_ONLY=chain
 * runs only the tamper-evident chain figures.
 *
 * The 100k-event directory for the open/read figures is created without EventLog (100k appends would
 * take most of the time budget) but with the same files a real log has: each event's slot claim in
 * `events/.slots/` and the event file hard-linked from it, as the local store's append does.
 *
 * Honesty rules (issue 21): every side gets the same warm-up run, figures are the median of several
 * runs (never the best), and "cold" figures run after dropping the page cache
 * (`echo 1 > /proc/sys/vm/drop_caches`), or say that the machine did not allow it.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, fsync, openSync, writeFileSync, writeSync } from 'node:fs';
import { link, mkdir, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { type AnyEvent, parseEventJson, serializeEvent } from '@x/events';
import { createChainLink, formatChainedClaim } from '../src/chain/chain-link.js';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { EventLog, type EventLogOptions } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { startMotoServer } from '../src/testing/moto-server.js';
import { createTestBucket, type TestBucket } from '../src/testing/test-bucket.js';
import { dropPageCache, median, type OpenMeasurement, syncDirectory } from './bench-utils.js';
import { scenarioEvents } from './event-shapes.js';
import { startLatencyProxy } from './latency-proxy.js';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 10_000);
const FSYNC_APPENDS = Number(process.env.BENCH_FSYNC_APPENDS ?? 500);
const S3_APPENDS = Number(process.env.BENCH_S3_APPENDS ?? 500);
const S3_LATENCY_APPENDS = Number(process.env.BENCH_S3_LATENCY_APPENDS ?? 200);
/** The network round trip the latency-bound S3 row adds to every request (a real endpoint's, roughly). */
const S3_ROUND_TRIP_MS = Number(process.env.BENCH_S3_ROUND_TRIP_MS ?? 10);
const OPEN_EVENTS = Number(process.env.BENCH_OPEN_EVENTS ?? 100_000);

const rows: string[][] = [];
const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const ratio = (ours: number, floor: number): string => `${(ours / floor).toFixed(2)}×`;
const perSecond = (count: number, elapsed: number): string => `${Math.round((count * 1000) / elapsed)}/s`;
function row(...cells: string[]): void {
  rows.push(cells);
  console.log(`  ${cells.join(' | ')}`);
}

function machine(): void {
  const cpu = cpus();
  console.log('# EventLog benchmark');
  console.log(
    `machine: ${cpu[0]?.model ?? 'unknown cpu'} × ${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
      `node ${process.version}, ${process.platform}/${process.arch}`,
  );
  console.log('reference (Python, performance.md): append 10k local 30.7 events/s overall, 63.6 ms per append at 10k;');
  console.log('  open 10k / 100k: 76 / 823 ms; read+parse 10k: 0.60 s; resume 100k: 8.6 s, 695 MB RSS.');
  console.log('targets: append constant per event and ≤ 1.25× floor; open ≤ 1.5× bare listing and ≤ 100 ms at 100k;');
  console.log('  read+parse 10k ≤ 150 ms; resume 100k ≤ 200 ms and ≤ 100 MB RSS.\n');
}

/** Appends `events` through an EventLog on `store`; returns total ms and ms per append for the first and last 10%. */
async function timeAppends(store: FileStore, events: readonly AnyEvent[], options: EventLogOptions = {}) {
  const log = await EventLog.open(store, options);
  const tenth = Math.max(1, Math.floor(events.length / 10));
  const started = performance.now();
  let firstTenth = 0;
  let lastTenthStart = 0;
  for (const [i, event] of events.entries()) {
    if (i === events.length - tenth) lastTenthStart = performance.now();
    await log.append(event);
    if (i === tenth - 1) firstTenth = performance.now() - started;
  }
  const last = (performance.now() - lastTenthStart) / tenth;
  // Counted: what a store finishes after the appends resolved (S3's event objects), which close waits for.
  await log.close();
  const total = performance.now() - started;
  return { total, first: firstTenth / tenth, last };
}

/** `appendMany` of `size` events at a time (after one single append, as a conversation's log has); total ms. */
async function timeBatchedAppends(store: FileStore, events: readonly AnyEvent[], size: number): Promise<number> {
  const log = await EventLog.open(store);
  const started = performance.now();
  await log.append(events[0]!);
  for (let i = 1; i < events.length; i += size) await log.appendMany(events.slice(i, i + size));
  await log.close();
  return performance.now() - started;
}

/** `fsync` of a descriptor through the thread pool. */
function fsyncFile(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * The floor: each event's bytes written once to `<dir>/<name>` with the same durability policy. With `sync`,
 * in synchronous calls (with `durable`, all but the two fsyncs, which go through the thread pool).
 */
async function timeFloorWrites(
  dir: string,
  events: readonly AnyEvent[],
  durable: boolean,
  sync = false,
): Promise<number> {
  await mkdir(dir, { recursive: true });
  const started = performance.now();
  for (const [i, event] of events.entries()) {
    const path = join(dir, eventFileName(i, event.id));
    const json = serializeEvent(event);
    if (!durable) {
      if (sync) writeFileSync(path, json);
      else await writeFile(path, json);
      continue;
    }
    if (sync) {
      const fd = openSync(path, 'w');
      writeSync(fd, json);
      await fsyncFile(fd);
      closeSync(fd);
      const directory = openSync(dir, 'r');
      await fsyncFile(directory);
      closeSync(directory);
      continue;
    }
    const handle = await open(path, 'w');
    await handle.writeFile(json);
    await handle.sync();
    await handle.close();
    await syncDirectory(dir);
  }
  return performance.now() - started;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * Runs ours and the floor alternately: one warm-up round of each (not counted), then `ROUNDS` rounds
 * of each, and reports each side's median run. The machine is shared, and alternating keeps a burst
 * of load from landing on one side only.
 */
async function alternate<T extends { total: number }>(
  ours: (round: number) => Promise<T>,
  floor: (round: number) => Promise<number>,
) {
  const oursRuns: T[] = [];
  const floorRuns: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const result = await ours(round);
    const floorTime = await floor(round);
    if (round === 0) continue; // the warm-up, the same for both sides
    oursRuns.push(result);
    floorRuns.push(floorTime);
  }
  oursRuns.sort((a, b) => a.total - b.total);
  return { ours: oursRuns[Math.floor((oursRuns.length - 1) / 2)]!, floor: median(floorRuns) };
}

async function benchAppends(scratch: string): Promise<string> {
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

/**
 * Writes `count` scenario events into `<root>/events` as a real log holds them (see the header
 * comment): the claim `events/.slots/{index}.json` with the event's JSON, and the event file as a hard
 * link to it, which is what the local store's `copy` makes.
 */
async function writeLogDirectly(root: string, count: number): Promise<void> {
  const dir = join(root, 'events');
  const slots = join(dir, '.slots');
  await mkdir(slots, { recursive: true });
  const pending = new Set<Promise<void>>();
  let index = 0;
  for (const event of scenarioEvents(count)) {
    const at = index++;
    const claim = join(slots, slotFileName(at));
    const write = writeFile(claim, serializeEvent(event), { flag: 'wx' })
      .then(() => link(claim, join(dir, eventFileName(at, event.id))))
      .then(() => {
        pending.delete(write);
      });
    pending.add(write);
    if (pending.size >= 64) await Promise.race(pending);
  }
  await Promise.all(pending);
}

async function benchOpen(scratch: string): Promise<void> {
  console.log(`\n## open a log of ${OPEN_EVENTS} events (claims + linked event files, see header)`);
  const root = join(scratch, 'open');
  let started = performance.now();
  await writeLogDirectly(root, OPEN_EVENTS);
  console.log(`  (created in ${ms(performance.now() - started)})`);
  const indexed = createLocalFileStore({ root, durability: 'none' });
  // Without listingVersion: every open lists, as an open without a (current) name index does.
  const store: FileStore = { ...indexed, listingVersion: undefined };
  const bare: number[] = [];
  const lists: number[] = [];
  const opens: number[] = [];
  // Run 0 is everyone's warm-up; runs 1..5 are counted.
  for (let run = 0; run <= 5; run++) {
    started = performance.now();
    await readdir(join(root, 'events'));
    const bareTime = performance.now() - started;
    started = performance.now();
    await store.list('events');
    const listTime = performance.now() - started;
    started = performance.now();
    await EventLog.open(store);
    const openTime = performance.now() - started;
    if (run === 0) continue;
    bare.push(bareTime);
    lists.push(listTime);
    opens.push(openTime);
  }
  row(
    'open, warm cache (median of 5 after a warm-up)',
    ms(median(opens)),
    `bare fs.readdir ${ms(median(bare))}`,
    `ratio ${ratio(median(opens), median(bare))}`,
    `of which FileStore.list ${ms(median(lists))} (${ratio(median(lists), median(bare))} readdir)`,
    'reference 823 ms at 100k',
  );

  // A fresh process, so its RSS is the log's and Node's alone; cold = page cache dropped first.
  const coldOpen = async (mode: 'list' | 'index') => {
    const cold = await dropPageCache();
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./open-log-child.ts', import.meta.url)), root, mode],
      {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      },
    );
    if (child.status !== 0) throw new Error(`open-log-child failed: ${child.stderr}`);
    return { cold, measured: JSON.parse(child.stdout) as OpenMeasurement };
  };
  const coldRow = (label: string, { cold, measured }: Awaited<ReturnType<typeof coldOpen>>) =>
    row(
      `${cold.dropped ? 'cold (page cache dropped)' : `cold process, page cache NOT dropped (${cold.reason})`}: ${label}`,
      `open ${ms(measured.openMs)}, last 100 ${ms(measured.lastHundredMs)}`,
      `RSS ${measured.rssBeforeMb.toFixed(0)} MB before → ${measured.rssAfterMb.toFixed(0)} MB after (tsx loader included)`,
      `heap held after GC ${measured.heapAfterGcMb.toFixed(1)} MB (${measured.heapBeforeMb.toFixed(1)} MB before)`,
      'reference resume 100k: 8.6 s, 695 MB',
    );
  coldRow('open (listing) + read last 100', await coldOpen('list'));

  // With its name index: what a log closed by its last process (EventLog.close) opens to.
  const closing = await EventLog.open(indexed);
  await closing.close();
  const indexOpens: number[] = [];
  for (let run = 0; run <= 5; run++) {
    started = performance.now();
    const opened = await EventLog.open(indexed);
    const openTime = performance.now() - started;
    if (opened.length !== OPEN_EVENTS) throw new Error(`the index open found ${opened.length} events`);
    if (run > 0) indexOpens.push(openTime);
  }
  row(
    'open with its name index, warm cache (median of 5 after a warm-up)',
    ms(median(indexOpens)),
    `ratio to bare fs.readdir ${ratio(median(indexOpens), median(bare))}`,
    `${ratio(median(indexOpens), median(opens))} the listing open`,
    'no listing: one stat of the directory, one read of events/.slots/name-index, one claim probe',
  );
  coldRow('open with its name index + read last 100', await coldOpen('index'));

  const log = await EventLog.open(store);
  started = performance.now();
  await log.range(-100);
  row('read last 100 (warm process, fresh log)', ms(performance.now() - started));

  const more = [...scenarioEvents(2_000)];
  started = performance.now();
  for (const event of more.slice(0, 1_000)) await log.append(event);
  const perAppend = (performance.now() - started) / 1_000;
  // The floor in the same 100k-entry directory, since a directory's size affects every create in it.
  const floor = await timeFloorWrites(join(root, 'events'), more.slice(1_000), false);
  row(
    `append 1,000 more to the ${OPEN_EVENTS}-event log (durability none)`,
    `${ms(perAppend)} per append`,
    `floor fs.writeFile in that directory ${ms(floor / 1_000)}`,
    `ratio ${ratio(perAppend, floor / 1_000)}`,
    'same store operations per append as on an empty log: one claim, one write',
  );
}

async function benchReadAll(root: string): Promise<void> {
  console.log(`\n## read and parse all ${APPENDS} events (the log written by the append bench)`);
  const store = createLocalFileStore({ root, durability: 'none' });
  const fromFiles: number[] = [];
  const fromPacks: number[] = [];
  const packWrites: number[] = [];
  const floor: number[] = [];
  const onePack: number[] = [];
  const verifies: number[] = [];
  const dir = join(root, 'events');
  // The floor of a packed read: the same events as one JSON array in one file, one readFile + JSON.parse.
  const texts = await Promise.all(
    (await readdir(dir)).filter((name) => name.startsWith('event-')).map((name) => readFile(join(dir, name), 'utf8')),
  );
  const single = join(root, 'all-events.json');
  await writeFile(single, `[${texts.join(',')}]`);
  // Run 0 is every side's warm-up; runs 1..ROUNDS are counted.
  for (let run = 0; run <= ROUNDS; run++) {
    let started = performance.now();
    const report = await verifyEventChain(store);
    if (run > 0) verifies.push(performance.now() - started);
    if (report.status !== 'verified' || report.length !== APPENDS) throw new Error(`verify: ${report.status}`);

    // First read: no packs (deleting them is always safe), so every event comes from its file.
    await rm(join(dir, '.slots', 'packs'), { recursive: true, force: true, maxRetries: 5 });
    started = performance.now();
    const log = await EventLog.open(store);
    const events = await log.range(0);
    if (run > 0) fromFiles.push(performance.now() - started);
    if (events.length !== APPENDS) throw new Error(`expected ${APPENDS} events, read ${events.length}`);
    // The packs that read scheduled (off its latency path), timed apart.
    started = performance.now();
    await log.packsSettled();
    if (run > 0) packWrites.push(performance.now() - started);

    started = performance.now();
    const packed = await (await EventLog.open(store)).range(0);
    if (run > 0) fromPacks.push(performance.now() - started);
    if (packed.length !== APPENDS) throw new Error(`expected ${APPENDS} events, read ${packed.length}`);

    started = performance.now();
    const names = (await readdir(dir)).filter((name) => name.startsWith('event-'));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < names.length) JSON.parse(await readFile(join(dir, names[next++]!), 'utf8'));
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    if (run > 0) floor.push(performance.now() - started);

    started = performance.now();
    JSON.parse(await readFile(single, 'utf8'));
    if (run > 0) onePack.push(performance.now() - started);
  }
  let started = performance.now();
  for (const text of texts) parseEventJson(text);
  const parseOnly = performance.now() - started;
  started = performance.now();
  for (const text of texts) JSON.parse(text);
  const jsonOnly = performance.now() - started;
  row(
    `open + range(0), first read: from the files, no packs (median of ${ROUNDS} after a warm-up)`,
    ms(median(fromFiles)),
    `floor readdir+readFile+JSON.parse per file ${ms(median(floor))}`,
    `ratio ${ratio(median(fromFiles), median(floor))}`,
    `then writing its ${Math.ceil(APPENDS / 1024)} packs, off the read's path: ${ms(median(packWrites))}`,
  );
  row(
    `open + range(0) with packs (${Math.floor(APPENDS / 1024)} of 1024 events${APPENDS % 1024 ? ` + one of the last ${APPENDS % 1024}` : ''})`,
    ms(median(fromPacks)),
    `floor one readFile + JSON.parse of all events as one array ${ms(median(onePack))}`,
    `ratio ${ratio(median(fromPacks), median(onePack))}`,
    `${ratio(median(fromPacks), median(floor))} the per-file floor; reference 0.60 s, target ≤ 150 ms`,
  );
  row('of which parseEventJson alone', ms(parseOnly), `JSON.parse alone ${ms(jsonOnly)}`);
  row(
    `verifyEventChain over the same ${APPENDS} events (local, median of ${ROUNDS} after a warm-up)`,
    ms(median(verifies)),
    `ratio to the first open + range(0) ${ratio(median(verifies), median(fromFiles))}`,
    `to the floor ${ratio(median(verifies), median(floor))}`,
    'reads every event file and its slot claim (2 files per event) and checks the packs against them; target ≤ 150 ms per 10k',
  );
}

/**
 * The tamper-evident chain's share of an append: the sha256 over the event's bytes and the header line
 * of its claim, timed alone (the chain adds no store operation: the link rides in the claim), and the
 * cost of verifying the whole log afterwards.
 */
async function benchChain(): Promise<void> {
  console.log('\n## tamper-evident chain (sha256 link in the slot claim)');
  const events = [...scenarioEvents(APPENDS)].map((event) => ({ id: event.id, json: serializeEvent(event) }));
  const bytes = events.reduce((sum, event) => sum + Buffer.byteLength(event.json), 0);
  let prev: string | null = null;
  const started = performance.now();
  for (const [index, event] of events.entries()) {
    const link = createChainLink(index, event.id, prev, event.json);
    formatChainedClaim(link, event.json);
    prev = link.hash;
  }
  const chainMs = performance.now() - started;
  const store = createMemoryFileStore();
  const appended = await timeAppends(store, [...scenarioEvents(APPENDS)]);
  row(
    `chain link per append (${APPENDS} events, ${Math.round(bytes / APPENDS)} B average)`,
    `${((chainMs * 1000) / APPENDS).toFixed(1)} µs`,
    `${((chainMs / appended.total) * 100).toFixed(1)}% of a memory-store append (${ms(appended.total / APPENDS)})`,
    'no extra store operation: one claim (link + event) and one write',
  );
  const verifyStarted = performance.now();
  const report = await verifyEventChain(store);
  row(`verifyEventChain over ${report.length} events (memory)`, ms(performance.now() - verifyStarted), report.status);
}

async function main(): Promise<void> {
  machine();
  await benchChain();
  if (process.env.BENCH_ONLY === 'chain') return;
  const scratch = await mkdtemp(join(tmpdir(), `x-store-bench-${randomUUID().slice(0, 8)}-`));
  const started = performance.now();
  try {
    // BENCH_ONLY=read | open | append runs one part (for profiling); the read part then writes its log by appends.
    const only = process.env.BENCH_ONLY;
    if (only === 'read') {
      const root = join(scratch, 'read');
      await timeAppends(createLocalFileStore({ root, durability: 'none' }), [...scenarioEvents(APPENDS)]);
      await benchReadAll(root);
    } else if (only === 'open') {
      await benchOpen(scratch);
    } else if (only === 'append') {
      await benchAppends(scratch);
    } else {
      const appendRoot = await benchAppends(scratch);
      await benchReadAll(appendRoot);
      await benchOpen(scratch);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
  console.log(`\ntotal ${(performance.now() - started) / 1000} s`);
}

await main();
