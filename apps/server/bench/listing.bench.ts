/**
 * Listing benchmark: a page of `GET /api/conversations/search` (and a count) on a server with 10,000
 * conversations on disk, against the target of 50 ms a page; the start-up cost of the index (one meta.json
 * read per conversation); and the server's heap and RSS before and after walking every page, then after the
 * idle conversations are released. Run by `pnpm bench`.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildServer } from '../src/index.js';

const CONVERSATIONS = Number(process.env.BENCH_LISTING_CONVERSATIONS ?? 10_000);
const PAGE = 20;
const RUNS = 20;

const dataDir = await mkdtemp(join(tmpdir(), 'x-listing-bench-'));
let now = 0;
try {
  const setup = await buildServer({ port: 0, dataDir, logLevel: 'silent' });
  const { url: setupUrl } = await setup.listen();
  const created = await setup.app.inject({
    method: 'POST',
    url: '/api/conversations',
    headers: { host: new URL(setupUrl).host },
    payload: { agent: { llm: { model: 'offline' } }, title: 'template' },
  });
  const template = (created.json() as { id: string }).id.replace(/-/g, '');
  await setup.close();

  // Copies of one conversation under new ids, each with its own meta.json (id, title, creation time).
  const root = join(dataDir, 'conversations');
  const meta = JSON.parse(await readFile(join(root, template, 'meta.json'), 'utf8')) as Record<string, unknown>;
  for (let start = 0; start < CONVERSATIONS; start += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, CONVERSATIONS - start) }, async (_, offset) => {
        const n = start + offset;
        const hex = n.toString(16).padStart(32, '0');
        await cp(join(root, template), join(root, hex), { recursive: true });
        const time = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString().replace('Z', '+00:00');
        await writeFile(
          join(root, hex, 'meta.json'),
          JSON.stringify({ ...meta, id: hex, title: `job ${n}`, created_at: time, updated_at: time }),
        );
      }),
    );
  }

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
  const memory = () => {
    globalThis.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    return `heap ${(heapUsed / 2 ** 20).toFixed(0)} MB, RSS ${(rss / 2 ** 20).toFixed(0)} MB`;
  };
  const before = memory();

  const pages: number[] = [];
  const counts: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const offset = Math.floor((run / RUNS) * CONVERSATIONS);
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
  const afterWalk = memory();
  now += 10 * 60_000;
  const released = await server.manager.releaseIdle();
  const afterRelease = memory();
  await server.close();

  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  console.log(`\nlisting ${CONVERSATIONS} conversations on disk (local file store)`);
  console.log(`  start-up with the index:      ${startup.toFixed(0)} ms (one meta.json read per conversation)`);
  console.log(
    `  a page of ${PAGE}:                mean ${mean(pages).toFixed(1)} ms, median ${median(pages).toFixed(1)} ms (target ≤ 50 ms)`,
  );
  console.log(
    `  a count with q:               mean ${mean(counts).toFixed(1)} ms, median ${median(counts).toFixed(1)} ms`,
  );
  console.log(`  memory at start:              ${before}`);
  console.log(`  after listing all ${listed}:     ${afterWalk}`);
  console.log(`  after releasing ${released} idle:    ${afterRelease}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
