/**
 * Web viewer benchmark: time from navigation to the first screen of a 10,000-event conversation
 * (its newest event drawn) in headless Debian chromium, against the target of one second. Also the
 * time to load one earlier range on scrolling up. Run by `pnpm bench` after the stream benchmark.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEvent, serializeEvent } from '@x/events';
import { eventFileName } from '@x/store';
import { buildServer } from '../src/index.js';
import { launchBrowser } from '../test/viewer/browser.js';

/** The page's document, as the functions evaluated in the browser see it (this file is typed for Node). */
declare const document: {
  querySelectorAll(selector: string): { length: number } & Iterable<{ textContent: string | null }>;
};

const EVENTS = Number(process.env.BENCH_VIEWER_EVENTS ?? 10_000);
const RUNS = 5;

const dataDir = await mkdtemp(join(tmpdir(), 'x-viewer-bench-'));
const setup = await buildServer({ port: 0, dataDir, logLevel: 'silent' });
const { url: setupUrl } = await setup.listen();
// The Host header the server allows (its own address): the default `localhost:80` is refused.
const created = await setup.app.inject({
  method: 'POST',
  url: '/api/conversations',
  headers: { host: new URL(setupUrl).host },
  payload: { agent: { llm: { model: 'offline' } } },
});
if (created.statusCode !== 201 && created.statusCode !== 200) {
  throw new Error(`creating the conversation failed: ${created.statusCode} ${created.body}`);
}
const id = (created.json() as { id: string }).id;
await setup.close();

const eventsDir = join(dataDir, 'conversations', id.replace(/-/g, ''), 'events');
const existing = (await readdir(eventsDir).catch(() => [])).filter((name) => name.endsWith('.json')).length;
await Promise.all(
  Array.from({ length: EVENTS }, (_, index) => {
    const event = createEvent('MessageEvent', {
      source: index % 2 === 0 ? 'user' : 'agent',
      llm_message: {
        role: index % 2 === 0 ? 'user' : 'assistant',
        content: [{ type: 'text', text: `message number ${index}: some **markdown** and \`code\`` }],
      },
    });
    return writeFile(join(eventsDir, eventFileName(existing + index, event.id)), serializeEvent(event));
  }),
);

const server = await buildServer({ port: 0, dataDir, logLevel: 'silent' });
const { url } = await server.listen();
const browser = await launchBrowser();
const firstScreen: number[] = [];
const olderRange: number[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const page = await browser.newPage();
    await page.goto(`${url}/#/c/${id}`, { waitUntil: 'commit' });
    // Measured in the page, from the navigation's start to the frame where the newest event is drawn.
    // Functions, not strings: the viewer's Content-Security-Policy forbids evaluating strings.
    await page.waitForFunction(
      (newest) => [...document.querySelectorAll('article')].some((card) => card.textContent?.includes(newest)),
      `message number ${EVENTS - 1}:`,
      { polling: 'raf' },
    );
    firstScreen.push(await page.evaluate(() => performance.now()));
    const before = await page.locator('article').count();
    const scrolled = performance.now();
    await page.locator('.timeline').evaluate((element) => {
      element.scrollTop = 0;
    });
    await page.waitForFunction((count) => document.querySelectorAll('article').length > count, before);
    olderRange.push(performance.now() - scrolled);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
// The first run also pays for the server opening the conversation (listing its 10,000 files); the others
// see it already open, as every later visitor does.
const [cold = 0, ...warm] = firstScreen;
console.log(
  `viewer-open: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${loadavg()[0]?.toFixed(1)}`,
);
console.log(`  conversation of ${EVENTS} events, ${RUNS} runs, cold page each run`);
console.log(`  first screen, conversation not yet open on the server: ${cold.toFixed(0)} ms`);
console.log(
  `  first screen (newest event drawn), conversation open: median ${median(warm).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms (target < 1000 ms)`,
);
console.log(`  one earlier range on scrolling up: median ${median(olderRange).toFixed(0)} ms`);
