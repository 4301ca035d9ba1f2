// `pnpm bench` for @x/store-postgres: append latency, per-step framework time and subscription fan-out on
// PostgreSQL (a throwaway server on 127.0.0.1 started here, fsync off) next to the file EventLog on a local
// directory (durability 'none', the same durability class). Prints the machine and both figures side by side.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { type AnyEvent, parseEvent } from '@x/events';
import { createFileStoreLeases, createLocalFileStore, EventLog, type EventLogLike, type Lease } from '@x/store';
import { connectPostgres, type PostgresDatabase, PostgresEventLog, PostgresLeases } from '../src/index.js';
import { countingDatabase, createTestDatabase, startPostgresServer } from '../src/testing/index.js';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 2000);
const STEPS = Number(process.env.BENCH_STEPS ?? 300);
const FAN_OUT_EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const SUBSCRIBERS = 8;
const REPLICA_EVENTS = Number(process.env.BENCH_REPLICA_EVENTS ?? 100);
const REPLICA_SUBSCRIBERS = [1, 10, 100];

function event(text: string) {
  return parseEvent({
    id: randomUUID(),
    timestamp: '2026-11-21T10:00:00.000000',
    source: 'agent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text: `${text} ${'x'.repeat(400)}` }] },
    kind: 'MessageEvent',
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (value: number): string => `${value.toFixed(3)} ms`;

interface Backend {
  name: string;
  open(logId: string): Promise<EventLogLike>;
  lease(key: string): Promise<Lease>;
  /**
   * One agent step's writes, as `Conversation` makes them with a run lease: the LLM response's stats update and
   * the action in one batch, then the observation, each at the index the owner expects and fenced.
   */
  step(log: EventLogLike, lease: Lease, events: readonly AnyEvent[]): Promise<void>;
  /** Commits made so far (undefined where the backend has no such unit). */
  commits(): number | undefined;
}

async function appendLatency(backend: Backend): Promise<number[]> {
  const log = await backend.open(`append-${randomUUID()}`);
  const times: number[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const started = performance.now();
    await log.append(event(`e${i}`));
    times.push(performance.now() - started);
  }
  return times;
}

/** One step's framework work without the model and tools (see `Backend.step`); its times and commits per step. */
async function stepTime(backend: Backend): Promise<{ times: number[]; commitsPerStep: number | undefined }> {
  const id = `steps-${randomUUID()}`;
  const lease = await backend.lease(id);
  const log = await backend.open(id);
  const times: number[] = [];
  const before = backend.commits();
  for (let i = 0; i < STEPS; i++) {
    const events = [0, 1, 2].map((k) => event(`s${i}.${k}`));
    const started = performance.now();
    await backend.step(log, lease, events);
    times.push(performance.now() - started);
  }
  const after = backend.commits();
  await lease.release();
  return { times, commitsPerStep: before === undefined || after === undefined ? undefined : (after - before) / STEPS };
}

/**
 * Latency from an append on one replica (its own pool) to its delivery to each of `subscribers` subscriptions on
 * another replica, all on one log instance there (as `x serve` shares one per conversation among its
 * WebSockets). One event at a time: the next is appended once every subscriber has the last.
 */
async function crossReplicaLatency(
  writerSide: PostgresDatabase,
  readerSide: PostgresDatabase,
  subscribers: number,
): Promise<number[]> {
  const id = `replica-${randomUUID()}`;
  const writer = await PostgresEventLog.open(writerSide, { logId: id });
  const reader = await PostgresEventLog.open(readerSide, { logId: id });
  const controller = new AbortController();
  // One abort listener per waiting subscription: 100 of them are expected.
  setMaxListeners(0, controller.signal);
  const sentAt: number[] = [];
  const latencies: number[] = [];
  let pending = 0;
  let allReceived: () => void = () => undefined;
  const streams = Array.from({ length: subscribers }, async () => {
    for await (const { index } of reader.subscribe(0, { signal: controller.signal })) {
      latencies.push(performance.now() - sentAt[index]!);
      if (--pending === 0) allReceived();
    }
  });
  for (let i = 0; i < REPLICA_EVENTS; i++) {
    const received = new Promise<void>((resolve) => {
      allReceived = resolve;
    });
    pending = subscribers;
    sentAt[i] = performance.now();
    await writer.append(event(`r${i}`));
    await received;
  }
  controller.abort();
  await Promise.allSettled(streams);
  return latencies;
}

/**
 * A writer appends while SUBSCRIBERS other instances stream the log. Returns events/s (events the writer got to
 * every subscriber per second) and deliveries/s (events × subscribers per second): the second is the first times
 * the subscriber count, and only the first says how fast one conversation's events move.
 */
async function fanOut(backend: Backend): Promise<{ events: number; deliveries: number }> {
  const id = `fan-${randomUUID()}`;
  const writer = await backend.open(id);
  const readers = await Promise.all(Array.from({ length: SUBSCRIBERS }, () => backend.open(id)));
  const controller = new AbortController();
  const started = performance.now();
  const done = readers.map(async (reader) => {
    let seen = 0;
    for await (const _ of reader.subscribe(0, { signal: controller.signal, pollIntervalMs: 25 })) {
      if (++seen === FAN_OUT_EVENTS) return;
    }
  });
  for (let i = 0; i < FAN_OUT_EVENTS; i++) await writer.append(event(`f${i}`));
  await Promise.all(done);
  const seconds = (performance.now() - started) / 1000;
  controller.abort();
  return { events: FAN_OUT_EVENTS / seconds, deliveries: (FAN_OUT_EVENTS * SUBSCRIBERS) / seconds };
}

async function main(): Promise<void> {
  const cpu = cpus();
  console.log('# PostgreSQL EventLog benchmark');
  console.log(
    `machine: ${cpu[0]?.model ?? 'unknown cpu'} × ${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, node ${process.version}`,
  );
  console.log('baseline: the file EventLog on a local directory (durability none) on the same machine;');
  console.log(
    'PostgreSQL: a local server on 127.0.0.1 with its durable defaults (fsync, synchronous_commit and full_page_writes on), pooled connections;',
  );
  console.log(
    "  the file log's durability 'none' beside it is the faster class: compare it with the PostgreSQL row knowing that.\n",
  );

  const server = await startPostgresServer({ durable: true });
  const testDatabase = await createTestDatabase(server.url);
  const databases: PostgresDatabase[] = [];
  const root = await mkdtemp(join(tmpdir(), 'x-pg-bench-'));
  try {
    const connected = await connectPostgres({ url: testDatabase.url, maxConnections: 16 });
    databases.push(connected);
    const { database, count } = countingDatabase(connected);
    const store = createLocalFileStore({ root, durability: 'none' });
    const postgres: Backend = {
      name: 'PostgreSQL',
      open: (logId) => PostgresEventLog.open(database, { logId }),
      lease: (key) => new PostgresLeases(database).acquire(key),
      async step(log, lease, [stats, action, observation]) {
        const fence = { key: lease.key, generation: lease.generation };
        await log.appendMany!([stats!, action!], { expectedIndex: log.length, fence });
        await log.append(observation!, { expectedIndex: log.length, fence });
      },
      commits: () => count.commits,
    };
    const files: Backend = {
      name: 'local files',
      open: (logId) => EventLog.open(store, { dir: `${logId}/events`, pollIntervalMs: 25 }),
      lease: (key) => createFileStoreLeases(store).acquire(key),
      // File logs check the lease before the write (they cannot inside it).
      async step(log, lease, [stats, action, observation]) {
        await lease.assertHeld();
        await log.appendMany!([stats!, action!], { expectedIndex: log.length });
        await lease.assertHeld();
        await log.append(observation!, { expectedIndex: log.length });
      },
      commits: () => undefined,
    };
    const row = (cells: string[]): void => console.log(`  ${cells.map((cell) => cell.padEnd(16)).join(' | ')}`);

    console.log(`## append (${APPENDS} sequential appends, one writer)`);
    row(['backend', 'p50', 'p99']);
    for (const backend of [postgres, files]) {
      const times = await appendLatency(backend);
      row([backend.name, ms(percentile(times, 50)), ms(percentile(times, 99))]);
    }
    console.log(
      `\n## per-step framework time (${STEPS} steps: stats update + action in one fenced batch, then the observation; no model or tools)`,
    );
    row(['backend', 'p50', 'p99', 'commits/step']);
    for (const backend of [postgres, files]) {
      const { times, commitsPerStep } = await stepTime(backend);
      row([
        backend.name,
        ms(percentile(times, 50)),
        ms(percentile(times, 99)),
        commitsPerStep === undefined ? '—' : commitsPerStep.toFixed(2),
      ]);
    }
    console.log(`\n## fan-out (${FAN_OUT_EVENTS} events to ${SUBSCRIBERS} subscribing instances)`);
    row(['backend', 'events/s', 'deliveries/s']);
    for (const backend of [postgres, files]) {
      const rate = await fanOut(backend);
      row([backend.name, rate.events.toFixed(0), rate.deliveries.toFixed(0)]);
    }
    console.log(
      `\n## cross-replica delivery (${REPLICA_EVENTS} events appended on one replica, one at a time, to N subscriptions on another)`,
    );
    row(['subscribers', 'p50', 'p99']);
    const readerSide = await connectPostgres({ url: testDatabase.url, maxConnections: 16 });
    databases.push(readerSide);
    for (const subscribers of REPLICA_SUBSCRIBERS) {
      const latencies = await crossReplicaLatency(connected, readerSide, subscribers);
      row([String(subscribers), ms(percentile(latencies, 50)), ms(percentile(latencies, 99))]);
    }
  } finally {
    for (const database of databases) await database.close();
    await testDatabase.drop();
    await server.stop();
    await rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
}

await main();
