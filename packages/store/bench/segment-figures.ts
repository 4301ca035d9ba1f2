// The EventLog benchmark's segment section: durable commits shaped as an agent step (its stats update and action
// in one appendMany, then its observation) in each layout, beside the physical floor (each commit appended to one
// open file + fdatasync), the same-commit-count floor (one durable file per commit) and the physical floor plus the
// reference's event files written unsynced by plain Node calls (what deriving them costs by itself).
import { closeSync, fdatasync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type AnyEvent, serializeEvent } from '@x/events';
import { eventFileName } from '../src/event-log/file-names.js';
import { EventLog, type EventLogOptions } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { ms, ratio, row } from './bench-harness.js';
import { median, syncDirectory } from './bench-utils.js';
import { stepCommits } from './event-shapes.js';
import { benchSegmentOpen } from './segment-open-figures.js';

const STEPS = Number(process.env.BENCH_SEGMENT_STEPS ?? 200);
const ROUNDS = Number(process.env.BENCH_SEGMENT_ROUNDS ?? 7);

type Variant =
  | 'files'
  | 'segment'
  | 'segment-batched'
  | 'segment-at-close'
  | 'physical'
  | 'physical+files'
  | 'file-per-commit';

const LABELS: Record<Variant, string> = {
  files: 'EventLog, file-per-event layout (default)',
  segment: "EventLog, segment layout, eventFiles 'each-commit'",
  'segment-batched': "EventLog, segment layout, eventFiles 'batched' (background, when idle: here at close)",
  'segment-at-close': "EventLog, segment layout, eventFiles 'at-close'",
  physical: 'floor, physical: each commit appended to one file + fdatasync',
  'physical+files': 'floor, physical + each event file written unsynced (temp + rename) after its commit',
  'file-per-commit': 'floor, one durable file per commit (file + directory fsync)',
};

function fdatasyncFile(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
}

/** A run's time: to its last commit acknowledged (the durable loop), and to `close` resolved (the same for floors). */
interface Run {
  readonly loop: number;
  readonly closed: number;
}

async function timeLog(root: string, commits: readonly AnyEvent[][], options: EventLogOptions): Promise<Run> {
  const log = await EventLog.open(createLocalFileStore({ root, durability: 'fsync' }), options);
  const started = performance.now();
  for (const commit of commits) {
    if (commit.length === 1) await log.append(commit[0]!);
    else await log.appendMany(commit);
  }
  const loop = performance.now() - started;
  await log.close();
  return { loop, closed: performance.now() - started };
}

async function timeFloor(root: string, commits: readonly AnyEvent[][], variant: Variant): Promise<Run> {
  const loop = await floorLoop(root, commits, variant);
  return { loop, closed: loop };
}

async function floorLoop(root: string, commits: readonly AnyEvent[][], variant: Variant): Promise<number> {
  const dir = join(root, 'events');
  await mkdir(dir, { recursive: true });
  const texts = commits.map((commit) => commit.map((event) => serializeEvent(event)));
  const started = performance.now();
  if (variant === 'file-per-commit') {
    for (const [index, commit] of texts.entries()) {
      const handle = await open(join(dir, `commit-${index}.json`), 'w');
      await handle.writeFile(commit.join('\n'));
      await handle.sync();
      await handle.close();
      await syncDirectory(dir);
    }
    return performance.now() - started;
  }
  const fd = openSync(join(dir, 'segment'), 'a');
  let index = 0;
  try {
    for (const [position, commit] of texts.entries()) {
      writeSync(fd, commit.join('\n'));
      await fdatasyncFile(fd);
      if (variant !== 'physical+files') continue;
      for (const [offset, json] of commit.entries()) {
        const path = join(dir, eventFileName(index++, commits[position]![offset]!.id));
        writeFileSync(`${path}.tmp`, json);
        renameSync(`${path}.tmp`, path);
      }
    }
  } finally {
    closeSync(fd);
  }
  return performance.now() - started;
}

/**
 * Every variant once per round, in an order that rotates, so a burst of load does not land on one variant only.
 * Each row prints its median per step beside the physical floor's median per step (the same statistic on both
 * sides) and, more robust on a shared disk, the median of its per-round ratios to the floor's run in that round.
 */
export async function benchSegment(scratch: string, options: { open?: boolean } = {}): Promise<void> {
  console.log(
    `\n## durable step commits by layout (${STEPS} steps = ${STEPS * 2} commits, 3 events a step; median of ${ROUNDS} rounds after a warm-up, variants rotating)`,
  );
  const commits = stepCommits(STEPS);
  const variants = Object.keys(LABELS) as Variant[];
  const times = new Map<Variant, Run[]>(variants.map((variant) => [variant, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(k + round) % variants.length]!;
      const root = await mkdtemp(join(scratch, `segment-${variant}-`));
      const elapsed =
        variant === 'files'
          ? await timeLog(root, commits, {})
          : variant === 'segment'
            ? await timeLog(root, commits, { layout: 'segment' })
            : variant === 'segment-batched'
              ? await timeLog(root, commits, { layout: 'segment', eventFiles: 'batched' })
              : variant === 'segment-at-close'
                ? await timeLog(root, commits, { layout: 'segment', eventFiles: 'at-close' })
                : await timeFloor(root, commits, variant);
      await rm(root, { recursive: true, force: true, maxRetries: 5 });
      if (round > 0) times.get(variant)!.push({ loop: elapsed.loop / STEPS, closed: elapsed.closed / STEPS });
    }
  }
  const physicalRuns = times.get('physical')!.map((run) => run.loop);
  const physical = median(physicalRuns);
  const perCommit = median(times.get('file-per-commit')!.map((run) => run.loop));
  const load = loadavg().map((value) => value.toFixed(2));
  console.log(`  (load average ${load.join(' ')})`);
  console.log('  per step: the loop (to its last commit acknowledged), then with close (what it wrote later counted)');
  for (const variant of variants) {
    const runs = times.get(variant)!;
    const loop = median(runs.map((run) => run.loop));
    const closed = median(runs.map((run) => run.closed));
    const paired = median(runs.map((run, round) => run.loop / physicalRuns[round]!));
    const pairedClosed = median(runs.map((run, round) => run.closed / physicalRuns[round]!));
    row(
      LABELS[variant],
      `loop ${ms(loop)} per step, physical floor ${ms(physical)}: ${ratio(loop, physical)} (median of per-round ratios ${paired.toFixed(2)}×)`,
      `with close ${ms(closed)}: ${ratio(closed, physical)} (per round ${pairedClosed.toFixed(2)}×)`,
      `loop ${ratio(loop, perCommit)} the same-commit-count floor`,
    );
  }
  if (options.open !== false) await benchSegmentOpen(scratch);
}
