/**
 * Event streaming benchmark: events/s and append-to-client latency (p50/p99) with 1, 10 and 100
 * subscribers on loopback, through our socket layer (EventLog on the durable store the server uses by
 * default, a local store with `durability: 'fsync'` → attachEventSockets → real `ws` clients), next to
 * the floor: a raw `ws` broadcast of the same frames to the same clients, and a raw broadcast that first
 * writes each frame's bytes durably (writeFile + fsync of file and directory), the same fsync policy.
 * Every side gets the same warm-up run; figures are the median of RUNS runs.
 */
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEvent, serializeEvent } from '@x/events';
import { createLocalFileStore, EventLog } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import { attachEventSockets, type SocketConversation } from '../src/websocket/index.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SUBSCRIBERS = [1, 10, 100];
const OUTPUT = 'x'.repeat(2_048);

const silent: FastifyBaseLogger = {
  level: 'silent',
  info: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  fatal: () => undefined,
  warn: () => undefined,
  trace: () => undefined,
  silent: () => undefined,
  child: () => silent,
};

/** ~3 KB observation-like events; the send time rides in the text so clients can measure latency. */
function makeEvent(index: number) {
  return createEvent('MessageEvent', {
    source: 'agent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text: `${index} ${OUTPUT}` }] },
  });
}

interface Result {
  seconds: number;
  eventsPerSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** Connects `count` clients; resolves their latency samples (ms) once each got `EVENTS` events. */
async function clients(url: string, count: number, sentAt: Map<number, number>) {
  const latencies: number[] = [];
  const done: Promise<void>[] = [];
  const sockets: WebSocket[] = [];
  const opened: Promise<void>[] = [];
  for (let client = 0; client < count; client++) {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    sockets.push(ws);
    let received = 0;
    opened.push(new Promise((resolve) => ws.once('message', () => resolve())));
    done.push(
      new Promise((resolve) => {
        ws.on('message', (data: Buffer) => {
          const text = data.toString();
          const match = /"text":"(\d+) /.exec(text);
          if (match === null) return;
          const sent = sentAt.get(Number(match[1]));
          if (sent !== undefined) latencies.push(performance.now() - sent);
          received += 1;
          if (received === EVENTS) resolve();
        });
      }),
    );
  }
  return {
    latencies,
    all: Promise.all(done),
    opened: Promise.all(opened),
    close: () => {
      for (const ws of sockets) ws.terminate();
    },
  };
}

function summarise(start: number, latencies: number[]): Result {
  const seconds = (performance.now() - start) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  return { seconds, eventsPerSecond: EVENTS / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function ours(subscribers: number): Promise<Result> {
  const root = await mkdtemp(join(tmpdir(), 'x-stream-bench-'));
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'fsync' }), { dir: 'c/events' });
  const conversation: SocketConversation = {
    id: 'c',
    log,
    fullState: () => ({ id: 'c' }),
    onPublished: () => () => undefined,
    sendUserMessage: async () => undefined,
  };
  const http = createServer();
  const sockets = attachEventSockets(
    http,
    { apiKeys: [], open: async () => conversation, logger: silent },
    { maxSubscribersPerConversation: 1_000 },
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const sentAt = new Map<number, number>();
  const group = await clients(`ws://127.0.0.1:${port}/sockets/events/c`, subscribers, sentAt);
  await group.opened;
  const events = Array.from({ length: EVENTS }, (_, index) => makeEvent(index));
  const start = performance.now();
  for (let index = 0; index < EVENTS; index++) {
    sentAt.set(index, performance.now());
    await log.append(events[index]!);
    // The same pacing as the raw run: one event per turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await group.all;
  const result = summarise(start, group.latencies);
  group.close();
  await sockets.close();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
  return result;
}

/** The floor: the same frames sent with `ws` to every client as they are produced, no log, no flow control. */
async function raw(subscribers: number, durable = false): Promise<Result> {
  const root = await mkdtemp(join(tmpdir(), 'x-stream-floor-'));
  const http = createServer();
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false });
  wss.on('connection', (ws) => ws.send('{"kind":"hello"}'));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const sentAt = new Map<number, number>();
  const group = await clients(`ws://127.0.0.1:${port}/`, subscribers, sentAt);
  await group.opened;
  const frames = Array.from({ length: EVENTS }, (_, index) => serializeEvent(makeEvent(index)));
  const start = performance.now();
  for (let index = 0; index < EVENTS; index++) {
    sentAt.set(index, performance.now());
    if (durable) await writeDurably(join(root, `event-${index}.json`), frames[index]!, root);
    for (const ws of wss.clients) ws.send(frames[index]!);
    // One event per turn of the event loop, as in our run.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await group.all;
  const result = summarise(start, group.latencies);
  group.close();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
  return result;
}

/** writeFile + fsync of the file and of its directory: the durable floor of one event. */
async function writeDurably(path: string, data: string, directory: string): Promise<void> {
  await writeFile(path, data);
  const file = await open(path, 'r+');
  await file.sync();
  await file.close();
  const dir = await open(directory, 'r');
  await dir.sync();
  await dir.close();
}

/** Median run by events/s, after one warm-up run (not counted). */
async function medianOf(run: () => Promise<Result>): Promise<Result> {
  await run();
  const results: Result[] = [];
  for (let index = 0; index < RUNS; index++) results.push(await run());
  results.sort((a, b) => a.eventsPerSecond - b.eventsPerSecond);
  return results[Math.floor(results.length / 2)]!;
}

const fmt = (value: number, digits = 1) => value.toFixed(digits);

async function main(): Promise<void> {
  console.log(
    `machine: ${cpus().length}× ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' / ')} (a loaded machine: compare ratios)`,
  );
  console.log(
    `${EVENTS} events of ~2.5 KB per run, durable store (local, fsync); median of ${RUNS} runs after a warm-up of every side;`,
  );
  console.log('latency = append call → frame parsed by the client');
  console.log(
    'events/s: events appended and received by every subscriber per second; deliveries/s = events/s × subscribers\n',
  );
  console.log(
    'subscribers | ours events/s | ours deliveries/s | raw ws + fsync events/s | ratio | raw ws events/s | ratio | ours p50 / p99 ms | raw+fsync p50 / p99 ms',
  );
  for (const subscribers of SUBSCRIBERS) {
    const a = await medianOf(() => ours(subscribers));
    const d = await medianOf(() => raw(subscribers, true));
    const b = await medianOf(() => raw(subscribers));
    console.log(
      `${String(subscribers).padStart(11)} | ${fmt(a.eventsPerSecond, 0).padStart(13)} | ${fmt(a.eventsPerSecond * subscribers, 0).padStart(17)} | ${fmt(d.eventsPerSecond, 0).padStart(23)} | ${fmt(
        d.eventsPerSecond / a.eventsPerSecond,
        2,
      )}× | ${fmt(b.eventsPerSecond, 0).padStart(15)} | ${fmt(b.eventsPerSecond / a.eventsPerSecond, 2)}× | ${fmt(a.p50, 2)} / ${fmt(
        a.p99,
        2,
      )} | ${fmt(d.p50, 2)} / ${fmt(d.p99, 2)}`,
    );
  }
}

await main();
