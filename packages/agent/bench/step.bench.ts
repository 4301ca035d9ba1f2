// Full-loop benchmark: framework cost per agent step, everything except the model's own time. The
// model is the offline LLM (createOfflineLLM) answering instantly with one tool call (~210 B of
// arguments); the tool returns 2,048 characters instantly; 1,000 steps. The time of step n is the
// interval between the model being asked for step n and for step n + 1, minus the time spent inside the
// model call, so it covers reading the view, building messages, parsing the tool call, emitting and
// persisting the action, observation and stats events, state updates and the base_state.json checkpoint.
//
// Every run is a fresh process, as the peers' harnesses measure, and the headline figure is the mean step time
// over the whole run (start-up and JIT included), with the median beside it. The floors (step-floors.ts) write
// the same event bytes in a fresh process too, and are reported with the same statistic: total time / steps.
//
// Stores: memory, local filesystem without fsync, local filesystem with fsync, and PostgreSQL as the
// store-postgres README deploys it (durable server defaults, events, base_state.json and the lease in the
// database). `BENCH_MODES=postgres-nofsync` adds the same with fsync, synchronous_commit and full_page_writes off,
// a configuration in which a PostgreSQL crash alone can lose acknowledged events (labelled as such).
// `BENCH_MODES=fsync-segment,fsync-segment-batched` adds the local fs with fsync in the EventLog's segment layout
// (an append-only segment per log as the commit point; event files after each commit, in the background once
// idle, or at close: `fsync-segment-at-close`). `BENCH_MODES=none-segment-batched` adds the local fs without fsync in
// the segment layout with batched event files, against the same floors as `none`.

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serializeEvent } from '@x/events';
import { createLocalFileStore, createMemoryFileStore, EventLog, type FileStore, parseEventFileName } from '@x/store';
import type { PostgresServer } from '@x/store-postgres/testing';
import { z } from 'zod';
import { conversationDirName } from '../src/conversation/persistence-layout.js';
import { CHECKPOINT_EVERY_STEPS } from '../src/conversation/run-loop.js';
import { Agent, Conversation, createOfflineLLM, defineTool, type LLM } from '../src/index.js';
import { connectBenchPostgres, startBenchServer } from './postgres-event-logs.js';
import { FLOOR_LABELS, type FloorKind, runFloor } from './step-floors.js';

const STEPS = Number(process.env.BENCH_STEPS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const OUTPUT = 'x'.repeat(2048);
const REFERENCE: Record<number, number> = { 10: 2.9, 100: 9.3, 1000: 79.6 };
const TARGET_MS = { memory: 0.25, none: 1.0 } as const;
const PHYSICAL_FLOOR_RATIO_TARGET = 2;

type Mode =
  | 'memory'
  | 'none'
  | 'none-segment-batched'
  | 'fsync'
  | 'fsync-segment'
  | 'fsync-segment-batched'
  | 'fsync-segment-at-close'
  | 'postgres'
  | 'postgres-nofsync';

const outputTool = defineTool({
  name: 'run_command',
  description: 'Runs a command (benchmark stand-in that returns 2 KB instantly).',
  parameters: z.object({ command: z.string(), summary: z.string().optional() }),
  execute: () => ({ content: OUTPUT }),
});

/** The offline LLM, timed: records when each call starts and how long the model itself took. */
function timedOfflineLLM(steps: number, askedAt: number[], modelMs: number[]): LLM {
  const inner = createOfflineLLM({
    script: (_request, turn) =>
      turn >= steps
        ? { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }
        : {
            toolCalls: [
              {
                name: 'run_command',
                arguments: {
                  command: `ls -la /tmp/dir-${turn} && cat file-${turn}.txt | head -n 40 && echo step-${turn}-done`,
                  summary: `step ${turn}: list the build directory and show the head of its log file`,
                },
              },
            ],
          },
  });
  return {
    model: inner.model,
    usageId: inner.usageId,
    offline: true,
    async complete(request) {
      const started = performance.now();
      askedAt.push(started);
      const response = await inner.complete(request);
      modelMs.push(performance.now() - started);
      return response;
    },
  };
}

interface RunResult {
  /** Framework ms of each step (1-based step n at index n - 1). */
  stepMs: number[];
  /** Serialized events in log order, for the floors (read back from the log after the loop). */
  bytes: string[];
  /** PostgreSQL: commits per step over the run (checkpoints included). */
  commitsPerStep?: number;
}

async function runLoop(mode: Mode, steps: number, postgresUrl: string | undefined): Promise<RunResult> {
  const dir = await mkdtemp(join(tmpdir(), 'x-step-bench-'));
  const askedAt: number[] = [];
  const modelMs: number[] = [];
  const bytes: string[] = [];
  let announced = 0;
  const postgres = postgresUrl === undefined ? undefined : await connectBenchPostgres(postgresUrl);
  let commitsPerStep: number | undefined;
  try {
    const agent = new Agent({ llm: timedOfflineLLM(steps, askedAt, modelMs), tools: [outputTool] });
    const store =
      postgres?.store ??
      (mode === 'memory'
        ? createMemoryFileStore()
        : createLocalFileStore({ root: dir, durability: mode.startsWith('none') ? 'none' : 'fsync' }));
    // The workspace lies beside the store, not holding it: a sandboxed conversation refuses a workspace holding its store.
    const workspace = join(dir, 'workspace');
    await mkdir(workspace, { recursive: true });
    const conversation = await Conversation.create({
      agent,
      workspace,
      persistenceDir: dir,
      store,
      ...(postgres === undefined ? {} : { openEventLog: postgres.openEventLog, leases: postgres.leases }),
      ...(mode.includes('-segment') && {
        openEventLog: ({ store, dir: eventsDir }) =>
          EventLog.open(store, {
            dir: eventsDir,
            layout: 'segment',
            ...(mode.endsWith('-segment-batched') && { eventFiles: 'batched' as const }),
            ...(mode === 'fsync-segment-at-close' && { eventFiles: 'at-close' as const }),
          }),
      }),
      maxIterationsPerRun: steps * 2 + 10,
      // A server's listener serializes each event it sends (a WebSocket frame) and drops the text: so does this
      // one. The texts the floors write are read back from the log after the loop, not kept during it, where
      // ~5 KB a step of them would be copied by every scavenge and charged to the steps (see the README).
      onEvent: (event, index) => {
        if (index !== undefined) announced += serializeEvent(event).length;
      },
    });
    await conversation.sendMessage('Benchmark task');
    const commitsBefore = postgres?.commits();
    const result = await conversation.run();
    if (result.status !== 'finished') throw new Error(`benchmark run ended ${result.status}`);
    if (postgres !== undefined) commitsPerStep = (postgres.commits() - commitsBefore!) / steps;
    // PostgreSQL: the log's events (rows, parsed back); elsewhere, once closed (every event file written, in the
    // segment modes too), the event files' texts, which are `serializeEvent`'s bytes.
    if (postgres !== undefined) for await (const event of conversation.events()) bytes.push(serializeEvent(event));
    await conversation.close();
    if (postgres === undefined)
      bytes.push(...(await eventFileTexts(store, `${conversationDirName(conversation.id)}/events`)));
    const logged = bytes.reduce((sum, text) => sum + text.length, 0);
    if (logged !== announced) throw new Error(`the log holds ${logged} characters of events, ${announced} announced`);
  } finally {
    await postgres?.close();
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  }
  const stepMs = askedAt.slice(1).map((time, index) => time - askedAt[index]! - modelMs[index]!);
  return { stepMs, bytes, ...(commitsPerStep === undefined ? {} : { commitsPerStep }) };
}

/** The texts of the event files in `dir`, in index order. */
async function eventFileTexts(store: FileStore, dir: string): Promise<string[]> {
  const files = (await store.list(dir))
    .map((path) => ({ path, index: parseEventFileName(path.slice(dir.length + 1))?.index }))
    .filter((file): file is { path: string; index: number } => file.index !== undefined)
    .sort((a, b) => a.index - b.index);
  return Promise.all(files.map((file) => store.read(file.path)));
}

/** What a child process is asked to do: one loop, or one floor over the bytes a loop wrote. */
type ChildJob =
  | { job: 'loop'; mode: Mode; steps: number; postgresUrl?: string; out: string }
  | { job: 'floor'; kind: FloorKind; eventsFile: string; workMsPerStep?: number; out: string };

/** A job without its output file, which `inFreshProcess` picks. */
type ChildJobInput = ChildJob extends infer Job ? (Job extends ChildJob ? Omit<Job, 'out'> : never) : never;

async function runChild(job: ChildJob): Promise<void> {
  if (job.job === 'loop') {
    const result = await runLoop(job.mode, job.steps, job.postgresUrl);
    await writeFile(job.out, JSON.stringify(result));
  } else {
    const events = JSON.parse(await readFile(job.eventsFile, 'utf8')) as string[];
    await writeFile(job.out, JSON.stringify(await runFloor(job.kind, events, job.workMsPerStep)));
  }
}

/** Runs `job` in a fresh Node process (with this process's loader flags, so tsx works) and returns its output. */
async function inFreshProcess<T>(job: ChildJobInput, scratch: string): Promise<T> {
  const out = join(scratch, `out-${Math.random().toString(36).slice(2)}.json`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_STEP_CHILD: JSON.stringify({ ...job, out }) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`benchmark child (${JSON.stringify(job)}) exited with ${code}`);
  return JSON.parse(await readFile(out, 'utf8')) as T;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Median step time over the 11 steps around step n (1-based): the statistic the reference's figures use. */
function around(stepMs: readonly number[], n: number): number {
  const start = Math.max(0, n - 6);
  return median(stepMs.slice(start, Math.min(stepMs.length, n + 5)));
}

const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const ratio = (ours: number, other: number): string => `${(ours / other).toFixed(2)}×`;

const LABELS: Record<Mode, string> = {
  memory: 'memory store',
  none: 'local fs, no fsync',
  'none-segment-batched': 'local fs, no fsync, segment, event files batched',
  fsync: 'local fs, fsync',
  'fsync-segment': 'local fs, fsync, segment',
  'fsync-segment-batched': 'local fs, fsync, segment, event files batched',
  'fsync-segment-at-close': 'local fs, fsync, segment, event files at close',
  postgres: 'PostgreSQL, durable',
  'postgres-nofsync': 'PostgreSQL, UNSAFE',
};
const FLOORS: Record<Mode, FloorKind[]> = {
  memory: [],
  none: ['writeFile', 'writeFileSync'],
  'none-segment-batched': ['writeFile', 'writeFileSync'],
  fsync: ['file-per-event', 'file-per-commit', 'physical', 'physical-with-work'],
  'fsync-segment': ['file-per-commit', 'physical', 'physical-with-work'],
  'fsync-segment-batched': ['file-per-commit', 'physical', 'physical-with-work'],
  'fsync-segment-at-close': ['file-per-commit', 'physical', 'physical-with-work'],
  postgres: ['physical', 'physical-with-work'],
  'postgres-nofsync': [],
};

/**
 * Runs `mode` RUNS times with its floors. `agentWorkMs`, the memory loop's mean step time (when it ran first), is
 * the agent's own work the `physical-with-work` floor spends between commits; without it that floor is left out.
 */
async function benchMode(
  mode: Mode,
  scratch: string,
  postgres: Map<Mode, PostgresServer>,
  agentWorkMs: number | undefined,
): Promise<number> {
  const points = [10, 100, 1000].filter((n) => n <= STEPS);
  const means: number[] = [];
  const commits: number[] = [];
  const medians: number[] = [];
  const perPoint = new Map<number, number[]>(points.map((n) => [n, []]));
  const floorKinds = FLOORS[mode].filter((kind) => kind !== 'physical-with-work' || agentWorkMs !== undefined);
  const floors = new Map<FloorKind, number[]>(floorKinds.map((kind) => [kind, []]));
  for (let run = 0; run < RUNS; run++) {
    const postgresUrl = postgres.get(mode)?.url;
    const result = await inFreshProcess<RunResult>(
      { job: 'loop', mode, steps: STEPS, ...(postgresUrl === undefined ? {} : { postgresUrl }) },
      scratch,
    );
    if (process.env.BENCH_DUMP !== undefined)
      await writeFile(`${process.env.BENCH_DUMP}-${mode}-${run}.json`, JSON.stringify(result.stepMs));
    means.push(mean(result.stepMs));
    if (result.commitsPerStep !== undefined) commits.push(result.commitsPerStep);
    medians.push(median(result.stepMs));
    for (const n of points) perPoint.get(n)!.push(around(result.stepMs, n));
    if (floors.size === 0) continue;
    const eventsFile = join(scratch, `events-${mode}-${run}.json`);
    await writeFile(eventsFile, JSON.stringify(result.bytes));
    for (const kind of floors.keys()) {
      const total = await inFreshProcess<number>(
        { job: 'floor', kind, eventsFile, ...(kind === 'physical-with-work' && { workMsPerStep: agentWorkMs }) },
        scratch,
      );
      floors.get(kind)!.push(total / STEPS);
    }
  }
  const ours = median(means);
  const atPoints = points
    .map((n) => `${n}: ${ms(median(perPoint.get(n)!))} (${ratio(median(perPoint.get(n)!), REFERENCE[n]!)} ref)`)
    .join(', ');
  console.log(
    `${LABELS[mode].padEnd(20)} mean ${ms(ours)} per step, median ${ms(median(medians))}; median at step ${atPoints}`,
  );
  if (commits.length > 0) {
    console.log(
      `  ${median(commits).toFixed(2)} commits per step (client-counted writing transactions over the run; a checkpoint every ${CHECKPOINT_EVERY_STEPS} steps included)`,
    );
  }
  if (mode === 'postgres') {
    console.log(
      '  durable server defaults (fsync, synchronous_commit, full_page_writes on); events, base_state.json and the lease in the database',
    );
  }
  if (mode === 'postgres-nofsync') {
    console.log(
      '  fsync, synchronous_commit and full_page_writes OFF: a PostgreSQL crash alone can lose acknowledged events; not a deployment configuration',
    );
  }
  for (const [kind, values] of floors) {
    const floor = median(values);
    console.log(`  floor, ${FLOOR_LABELS[kind]}: ${ms(floor)} per step; ours ${ratio(ours, floor)}`);
  }
  if (mode === 'memory' || mode === 'none' || mode === 'none-segment-batched') {
    const target = TARGET_MS[mode === 'memory' ? 'memory' : 'none'];
    console.log(`  target mean ≤ ${target} ms: ${ours <= target ? 'met' : 'NOT met'}`);
  }
  if (mode === 'fsync' || mode.startsWith('fsync-segment')) {
    const physical = median(floors.get('physical')!);
    const verdict = ours <= PHYSICAL_FLOOR_RATIO_TARGET * physical ? 'met' : 'NOT met';
    console.log(`  target ≤ ${PHYSICAL_FLOOR_RATIO_TARGET}× the physical floor: ${verdict}`);
  }
  return ours;
}

async function main(): Promise<void> {
  console.log(`# agent full-loop benchmark — node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`);
  console.log(
    `load average at start ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' / ')} (a loaded machine makes absolute figures noisy; compare the ratios)`,
  );
  console.log(
    `offline LLM, 2 KB tool output, ${STEPS} steps; each run a fresh process; figures: the median over ${RUNS} runs of each run's mean (and median) step time`,
  );
  console.log(
    'reference (Python): median 2.9 / 9.3 / 79.6 ms at step 10 / 100 / 1,000; the floors: the same bytes by plain Node calls, total time / steps\n',
  );
  const selected = (process.env.BENCH_MODES ?? 'memory,none,fsync,postgres').split(',');
  for (const mode of selected) {
    if (!Object.hasOwn(LABELS, mode))
      throw new Error(`BENCH_MODES: unknown mode '${mode}' (${Object.keys(LABELS).join(', ')})`);
  }
  const modes = (Object.keys(LABELS) as Mode[]).filter((mode) => selected.includes(mode));
  const scratch = await mkdtemp(join(tmpdir(), 'x-step-bench-scratch-'));
  const servers = new Map<Mode, PostgresServer>();
  try {
    if (modes.includes('postgres')) servers.set('postgres', await startBenchServer(true));
    if (modes.includes('postgres-nofsync')) servers.set('postgres-nofsync', await startBenchServer(false));
    const results = new Map<Mode, number>();
    for (const mode of modes) results.set(mode, await benchMode(mode, scratch, servers, results.get('memory')));
    const pg = results.get('postgres');
    const fsync = results.get('fsync');
    if (pg !== undefined && fsync !== undefined) {
      console.log(`\nPostgreSQL (durable) against the local fs with fsync, same statistic: ${ratio(pg, fsync)}`);
    }
    const none = results.get('none');
    const noneSegment = results.get('none-segment-batched');
    if (none !== undefined && noneSegment !== undefined) {
      console.log(
        `\n${LABELS['none-segment-batched']} against file-per-event (both without fsync), same statistic: ${ratio(noneSegment, none)}`,
      );
    }
    for (const mode of ['fsync-segment', 'fsync-segment-batched', 'fsync-segment-at-close'] as const) {
      const segment = results.get(mode);
      if (segment === undefined || fsync === undefined) continue;
      console.log(
        `\n${LABELS[mode]} against file-per-event (both with fsync), same statistic: ${ratio(segment, fsync)}`,
      );
    }
  } finally {
    for (const server of servers.values()) await server.stop();
    await rm(scratch, { recursive: true, force: true, maxRetries: 5 });
  }
}

const childJob = process.env.BENCH_STEP_CHILD;
if (childJob === undefined) await main();
else await runChild(JSON.parse(childJob) as ChildJob);
