/**
 * The server side of the listing benchmark, in a process of its own (so its memory is the server's alone, not
 * the data generator's): starts a server on the conversations `listing.bench.ts` wrote to `BENCH_LISTING_DIR`,
 * times pages and counts, walks every page (every conversation opened), releases the idle ones, and prints the
 * figures.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as delay, setImmediate as nextTurn } from 'node:timers/promises';
import { buildServer } from '../src/index.js';

const dataDir = process.env.BENCH_LISTING_DIR;
if (dataDir === undefined) throw new Error('BENCH_LISTING_DIR is not set (run listing.bench.ts)');
const conversations = Number(process.env.BENCH_LISTING_CONVERSATIONS ?? 10_000);
const PAGE = 20;
const RUNS = 20;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
/** Heap and RSS once garbage is collected (a turn later: weak references read this turn are kept until it ends). */
async function memory(): Promise<{ heap: number; rss: number; text: string }> {
  await nextTurn();
  globalThis.gc?.();
  const { heapUsed, heapTotal, rss, external } = process.memoryUsage();
  return {
    heap: heapUsed,
    rss,
    text: `heap ${mb(heapUsed)} (of ${mb(heapTotal)} committed), external ${mb(external)}, RSS ${mb(rss)}`,
  };
}

let now = 0;
const startedAt = performance.now();
const server = await buildServer({ port: 0, dataDir, logLevel: 'silent' }, { clock: () => now });
const startup = performance.now() - startedAt;
const { url } = await server.listen();
const host = new URL(url).host;
const get = async (path: string) => {
  const response = await server.app.inject({ method: 'GET', url: path, headers: { host } });
  if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${response.body}`);
  return response.json() as { items: { id: string }[]; next_page_id: string | null };
};
const before = await memory();

const pages: number[] = [];
const counts: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const offset = Math.floor((run / RUNS) * conversations);
  const pageId = offset.toString(16).padStart(32, '0');
  let began = performance.now();
  await get(`/api/conversations/search?limit=${PAGE}&sort_order=CREATED_AT_DESC&page_id=${pageId}`);
  pages.push(performance.now() - began);
  began = performance.now();
  await server.app.inject({ method: 'GET', url: '/api/conversations/count?q=job%201', headers: { host } });
  counts.push(performance.now() - began);
}

// Every page once (every conversation opened), then the idle ones released.
let next: string | null = null;
let listed = 0;
do {
  const page = await get(`/api/conversations/search?limit=100${next === null ? '' : `&page_id=${next}`}`);
  listed += page.items.length;
  next = page.next_page_id;
} while (next !== null);
const afterWalk = await memory();
now += 10 * 60_000;
const released = await server.manager.releaseIdle();
const afterRelease = await memory();
// Then idle: what V8's memory reducer and the allocator give back over the next seconds (up to 5 s, until RSS holds).
let idle = afterRelease;
let idleMs = 0;
for (let previous = Number.POSITIVE_INFINITY; idleMs < 5_000 && idle.rss < previous; idleMs += 500) {
  previous = idle.rss;
  await delay(500);
  idle = await memory();
}
await server.close();

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;
console.log(`\nlisting ${conversations} conversations on disk (local file store; the server in a process of its own)`);
console.log(`  start-up with the index:      ${startup.toFixed(0)} ms (one meta.json read per conversation)`);
console.log(
  `  a page of ${PAGE}:                mean ${mean(pages).toFixed(1)} ms, median ${median(pages).toFixed(1)} ms (target ≤ 50 ms)`,
);
console.log(
  `  a count with q:               mean ${mean(counts).toFixed(1)} ms, median ${median(counts).toFixed(1)} ms`,
);
console.log(`  memory at start:              ${before.text}`);
console.log(`  after listing all ${listed}:     ${afterWalk.text}`);
console.log(`  after releasing ${released} idle:    ${afterRelease.text}`);
console.log(
  `  idle ${(idleMs / 1000).toFixed(1)} s later:             ${idle.text}: heap ${ratio(idle.heap, before.heap)} and RSS ${ratio(idle.rss, before.rss)} its start (target RSS ≤ 1.2×)`,
);
