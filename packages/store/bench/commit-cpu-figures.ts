// The EventLog benchmark's commit CPU section (BENCH_ONLY=commit-cpu): the CPU the store spends per commit of an
// agent step's shape ([stats-like, action] in one appendMany, then an observation), with no fsync, so the figure is
// the store's own work (serialising, chaining, framing, the write and what follows it), not the disk's. And what the
// memory store keeps per event (its bytes held once or twice). Each variant runs ROUNDS times after a warm-up, in a
// rotating order; the rows are medians.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AnyEvent } from '@x/events';
import { EventLog, type EventLogOptions } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { row } from './bench-harness.js';
import { median } from './bench-utils.js';
import { stepCommits } from './event-shapes.js';

const STEPS = Number(process.env.BENCH_COMMIT_CPU_STEPS ?? 2000);
const ROUNDS = Number(process.env.BENCH_COMMIT_CPU_ROUNDS ?? 5);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type Variant = 'segment-none-at-close' | 'segment-none' | 'memory-files' | 'memory-segment';

const LABELS: Record<Variant, string> = {
  'segment-none-at-close': "local, durability 'none', segment, eventFiles 'at-close'",
  'segment-none': "local, durability 'none', segment, eventFiles 'each-commit'",
  'memory-files': 'memory store, file-per-event layout (default)',
  'memory-segment': 'memory store, segment layout',
};

interface Run {
  /** CPU (user + system, this process) per commit, µs; wall time per commit, µs. */
  readonly cpuUs: number;
  readonly wallUs: number;
  /** Bytes the store still holds per event once the loop ended (heap + array buffers, after a full GC). */
  readonly heldPerEvent: number;
}

async function timeCommits(store: FileStore, commits: readonly AnyEvent[][], options: EventLogOptions): Promise<Run> {
  const log = await EventLog.open(store, options);
  // The first event (its chain anchor, the segment's creation) is not what a step costs.
  await log.append(commits[0]![0]!);
  gc();
  const memoryBefore = process.memoryUsage();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (const commit of commits.slice(1)) {
    if (commit.length === 1) await log.append(commit[0]!);
    else await log.appendMany(commit);
  }
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  gc();
  const memoryAfter = process.memoryUsage();
  const count = commits.length - 1;
  const events = commits.slice(1).reduce((sum, commit) => sum + commit.length, 0);
  const held = memoryAfter.heapUsed + memoryAfter.arrayBuffers - (memoryBefore.heapUsed + memoryBefore.arrayBuffers);
  await log.close();
  return { cpuUs: (cpu.user + cpu.system) / count, wallUs: (wall * 1000) / count, heldPerEvent: held / events };
}

async function runVariant(scratch: string, variant: Variant, commits: readonly AnyEvent[][]): Promise<Run> {
  if (variant === 'memory-files') return timeCommits(createMemoryFileStore(), commits, {});
  if (variant === 'memory-segment') return timeCommits(createMemoryFileStore(), commits, { layout: 'segment' });
  const root = await mkdtemp(join(scratch, `commit-cpu-${variant}-`));
  try {
    const store = createLocalFileStore({ root, durability: 'none' });
    return await timeCommits(store, commits, {
      layout: 'segment',
      ...(variant === 'segment-none-at-close' && { eventFiles: 'at-close' as const }),
    });
  } finally {
    await rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
}

export async function benchCommitCpu(scratch: string): Promise<void> {
  console.log(
    `\n## store CPU per commit (${STEPS} steps = ${STEPS * 2} commits, 3 events a step, no fsync; median of ${ROUNDS} rounds after a warm-up)`,
  );
  const variants = Object.keys(LABELS) as Variant[];
  const runs = new Map<Variant, Run[]>(variants.map((variant) => [variant, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(k + round) % variants.length]!;
      // Fresh ids each run: a log refuses an id it holds, and a new log per run never sees one twice anyway.
      const run = await runVariant(scratch, variant, stepCommits(STEPS, 2));
      if (round > 0) runs.get(variant)!.push(run);
    }
  }
  for (const variant of variants) {
    const done = runs.get(variant)!;
    row(
      LABELS[variant],
      `CPU ${median(done.map((run) => run.cpuUs)).toFixed(1)} µs per commit`,
      `wall ${median(done.map((run) => run.wallUs)).toFixed(1)} µs per commit`,
      `held ${(median(done.map((run) => run.heldPerEvent)) / 1024).toFixed(2)} KiB per event`,
    );
  }
}
