/**
 * EventLog benchmark: `pnpm --filter @x/store bench` (tsx bench/event-log.bench.ts).
 *
 * Each figure is printed next to its floor (the same bytes written the plainest way, with the same
 * durability policy) and next to the Python reference's figure from performance.md. Sizes can be
 * changed with environment variables (BENCH_APPENDS, BENCH_FSYNC_APPENDS, BENCH_S3_APPENDS,
 * BENCH_OPEN_EVENTS, BENCH_SEGMENT_STEPS, BENCH_SEGMENT_ROUNDS); the defaults keep a run under about three minutes on 2 cores. BENCH_ONLY=chain
 * runs only the tamper-evident chain figures; BENCH_ONLY=segment only the durable step commits by layout (and the segment open rows; BENCH_ONLY=segment-commits without them),
 * BENCH_ONLY=segment-open only the open of a 10k- and a 100k-event log by layout (BENCH_SEGMENT_OPEN_EVENTS);
 * BENCH_ONLY=commit-cpu only the store's CPU per commit, no fsync (BENCH_COMMIT_CPU_STEPS, BENCH_COMMIT_CPU_ROUNDS).
 *
 * The 100k-event directory for the open/read figures is created without EventLog (100k appends would
 * take most of the time budget) but with the same files a real log has: each event's slot claim in
 * `events/.slots/` and the event file hard-linked from it, as the local store's append does.
 *
 * Honesty rules (issue 21): every side gets the same warm-up run, figures are the median of several
 * runs (never the best), and "cold" figures run after dropping the page cache
 * (`echo 1 > /proc/sys/vm/drop_caches`), or say that the machine did not allow it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { createChainLink, formatChainedClaim } from '../src/chain/chain-link.js';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { benchAppends } from './append-figures.js';
import { APPENDS, machine, ms, row, timeAppends } from './bench-harness.js';
import { benchCommitCpu } from './commit-cpu-figures.js';
import { scenarioEvents } from './event-shapes.js';
import { benchOpen, benchReadAll } from './open-read-figures.js';
import { benchSegment } from './segment-figures.js';
import { benchSegmentOpen } from './segment-open-figures.js';

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
    } else if (only === 'segment') {
      await benchSegment(scratch);
    } else if (only === 'segment-commits') {
      await benchSegment(scratch, { open: false });
    } else if (only === 'commit-cpu') {
      await benchCommitCpu(scratch);
    } else if (only === 'segment-open') {
      await benchSegmentOpen(scratch);
    } else {
      const appendRoot = await benchAppends(scratch);
      await benchReadAll(appendRoot);
      await benchOpen(scratch);
      await benchSegment(scratch);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
  console.log(`\ntotal ${(performance.now() - started) / 1000} s`);
}

await main();
