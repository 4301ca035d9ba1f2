// Full-loop benchmark: framework cost per agent step, everything except the model's own time. The
// model is the offline LLM (createOfflineLLM) answering instantly with one tool call (~210 B of
// arguments); the tool returns 2,048 characters instantly; 1,000 steps. The time of step n is the
// interval between the model being asked for step n and for step n + 1, minus the time spent inside the
// model call, so it covers reading the view, building messages, parsing the tool call, emitting and
// persisting the action, observation and stats events, state updates and the base_state.json checkpoint.
//
// Stores: memory, local filesystem without fsync, local filesystem with fsync, and the events in PostgreSQL
// (a throwaway local server with fsync off, the other conversation files in memory). Each is printed next to
// the reference (Python, performance.md) and, for the filesystem, next to its floor: the same event
// bytes written one file per event with plain `fs.writeFile` under the same fsync policy (file and
// directory fsync for 'fsync'). Every side gets the same warm-up run; figures are medians of RUNS runs.

import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeEvent } from '@x/events';
import { createLocalFileStore, createMemoryFileStore, eventFileName } from '@x/store';
import { z } from 'zod';
import { Agent, Conversation, createOfflineLLM, defineTool, type LLM } from '../src/index.js';
import { type BenchPostgres, startBenchPostgres } from './postgres-event-logs.js';

const STEPS = Number(process.env.BENCH_STEPS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WARMUP_STEPS = Number(process.env.BENCH_WARMUP_STEPS ?? 200);
// BENCH_MODES=memory,none,fsync,postgres (the default) selects the stores, e.g. for a `--cpu-prof` of one.
const OUTPUT = 'x'.repeat(2048);
const REFERENCE: Record<number, number> = { 10: 2.9, 100: 9.3, 1000: 79.6 };
const TARGET_MS = { memory: 0.25, none: 1.0 } as const;
const FSYNC_FLOOR_RATIO_TARGET = 1.25;

type Mode = 'memory' | 'none' | 'fsync' | 'postgres';

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
  /** Serialized events in log order, for the floor. */
  bytes: string[];
}

async function runLoop(mode: Mode, steps: number, postgres: BenchPostgres | undefined): Promise<RunResult> {
  const dir = await mkdtemp(join(tmpdir(), 'x-step-bench-'));
  const askedAt: number[] = [];
  const modelMs: number[] = [];
  const bytes: string[] = [];
  try {
    const agent = new Agent({ llm: timedOfflineLLM(steps, askedAt, modelMs), tools: [outputTool] });
    const conversation = await Conversation.create({
      agent,
      workspace: dir,
      persistenceDir: dir,
      // With PostgreSQL only the events go to the database: base_state.json and the other files stay in memory,
      // so the row measures the database log.
      store:
        mode === 'memory' || mode === 'postgres'
          ? createMemoryFileStore()
          : createLocalFileStore({ root: dir, durability: mode }),
      ...(mode === 'postgres' ? { openEventLog: postgres!.openEventLog } : {}),
      maxIterationsPerRun: steps * 2 + 10,
      onEvent: (event, index) => {
        if (index !== undefined) bytes.push(serializeEvent(event));
      },
    });
    await conversation.sendMessage('Benchmark task');
    const result = await conversation.run();
    if (result.status !== 'finished') throw new Error(`benchmark run ended ${result.status}`);
    await conversation.close();
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  }
  const stepMs = askedAt.slice(1).map((time, index) => time - askedAt[index]! - modelMs[index]!);
  return { stepMs, bytes };
}

/**
 * The floor: the same bytes, one file per event, plain `fs.writeFile` under the same fsync policy. With
 * `sync` (no fsync only), `fs.writeFileSync`: the store's 'none' writes are synchronous system calls, so
 * this is the floor for the same kind of call.
 */
async function floorWrites(bytes: readonly string[], durable: boolean, sync = false): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'x-step-floor-'));
  const events = join(dir, 'events');
  await mkdir(events);
  try {
    const started = performance.now();
    for (const [index, json] of bytes.entries()) {
      const path = join(events, eventFileName(index, `e${index}`));
      if (!durable) {
        if (sync) writeFileSync(path, json);
        else await writeFile(path, json);
        continue;
      }
      const handle = await open(path, 'w');
      await handle.writeFile(json);
      await handle.sync();
      await handle.close();
      const directory = await open(events, 'r');
      await directory.sync();
      await directory.close();
    }
    return performance.now() - started;
  } finally {
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median step time over the 11 steps around step n (1-based). */
function around(stepMs: readonly number[], n: number): number {
  const start = Math.max(0, n - 6);
  return median(stepMs.slice(start, Math.min(stepMs.length, n + 5)));
}

const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
const ratio = (ours: number, other: number): string => `${(ours / other).toFixed(2)}×`;

console.log(`# agent full-loop benchmark — node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`);
console.log(
  `load average at start ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ')} (a loaded machine makes absolute figures noisy; compare the ratios)`,
);
console.log(
  `offline LLM, 2 KB tool output, ${STEPS} steps; median of ${RUNS} runs after a ${WARMUP_STEPS}-step warm-up of every side`,
);
console.log(
  `reference (Python, median): 2.9 / 9.3 / 79.6 ms at step 10 / 100 / 1,000; targets at step 1,000: memory ≤ ${TARGET_MS.memory} ms,`,
);
console.log(
  `  filesystem without fsync ≤ ${TARGET_MS.none} ms, with fsync ≤ ${FSYNC_FLOOR_RATIO_TARGET}× the floor, PostgreSQL log ≤ ${TARGET_MS.none} ms\n`,
);

const points = [10, 100, 1000].filter((n) => n <= STEPS);
const LABELS: Record<Mode, string> = {
  memory: 'memory store',
  none: 'local fs, no fsync',
  fsync: 'local fs, fsync',
  postgres: 'PostgreSQL log',
};
const selected = (process.env.BENCH_MODES ?? 'memory,none,fsync,postgres').split(',');
for (const mode of selected) {
  if (!Object.hasOwn(LABELS, mode))
    throw new Error(`BENCH_MODES: unknown mode '${mode}' (${Object.keys(LABELS).join(', ')})`);
}
// Always in this order, so that the PostgreSQL row can be compared with the filesystem's when both run.
const MODES = (Object.keys(LABELS) as Mode[]).filter((mode) => selected.includes(mode));
/** Each mode's step time at the last point, for the comparisons between rows. */
const lastPoint = new Map<Mode, number>();
const postgres = MODES.includes('postgres') ? await startBenchPostgres() : undefined;
try {
  for (const mode of MODES) await benchMode(mode);
} finally {
  await postgres?.stop();
}

async function benchMode(mode: Mode): Promise<void> {
  // The same warm-up for our loop and for the floor.
  const warm = await runLoop(mode, WARMUP_STEPS, postgres);
  const onFiles = mode === 'none' || mode === 'fsync';
  if (onFiles) await floorWrites(warm.bytes, mode === 'fsync');
  if (mode === 'none') await floorWrites(warm.bytes, false, true);
  const perPoint = new Map<number, number[]>(points.map((n) => [n, []]));
  const floors: number[] = [];
  const syncFloors: number[] = [];
  const totals: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const result = await runLoop(mode, STEPS, postgres);
    for (const n of points) perPoint.get(n)!.push(around(result.stepMs, n));
    if (process.env.BENCH_DUMP)
      writeFileSync(`${process.env.BENCH_DUMP}-${mode}-${run}.json`, JSON.stringify(result.stepMs));
    totals.push(result.stepMs.reduce((sum, value) => sum + value, 0) / result.stepMs.length);
    // Floor per step: the same bytes written plainly, spread over the same number of steps.
    if (onFiles) floors.push((await floorWrites(result.bytes, mode === 'fsync')) / STEPS);
    if (mode === 'none') syncFloors.push((await floorWrites(result.bytes, false, true)) / STEPS);
  }
  const figures = points
    .map((n) => {
      const ours = median(perPoint.get(n)!);
      return `step ${n}: ${ms(ours)} (${ratio(ours, REFERENCE[n]!)} ref)`;
    })
    .join('  ');
  console.log(`${LABELS[mode].padEnd(18)} ${figures}  mean over the run ${ms(median(totals))}`);
  const at1000 = median(perPoint.get(points.at(-1)!)!);
  lastPoint.set(mode, at1000);
  if (mode === 'memory') {
    console.log(`  target ≤ ${TARGET_MS.memory} ms: ${at1000 <= TARGET_MS.memory ? 'met' : 'NOT met'}`);
  } else if (mode === 'postgres') {
    console.log(
      "  events in a PostgresEventLog on a local server (127.0.0.1, fsync off: the durability class of the fs's 'none');\n" +
        '  base_state.json and the other conversation files in a memory store, so the row measures the database log',
    );
    const verdict = at1000 <= TARGET_MS.none ? 'met' : 'NOT met';
    const againstFiles = lastPoint.get('none');
    console.log(
      `  target ≤ ${TARGET_MS.none} ms (a persisted loop faster than the fastest loop that persists nothing): ${verdict}` +
        (againstFiles === undefined ? '' : `; ${ratio(at1000, againstFiles)} the local-fs-no-fsync row`),
    );
  } else {
    const floor = median(floors);
    const floorRatio = at1000 / floor;
    const verdict =
      mode === 'none'
        ? `target ≤ ${TARGET_MS.none} ms: ${at1000 <= TARGET_MS.none ? 'met' : 'NOT met'}`
        : `target ≤ ${FSYNC_FLOOR_RATIO_TARGET}× floor: ${floorRatio <= FSYNC_FLOOR_RATIO_TARGET ? 'met' : 'NOT met'}`;
    console.log(
      `  floor (same bytes, one fs.writeFile per event${mode === 'fsync' ? ' + fsync of file and directory' : ''}): ` +
        `${ms(floor)} per step; ours ${ratio(at1000, floor)} the floor at step ${points.at(-1)}; ${verdict}`,
    );
    if (mode === 'none') {
      const syncFloor = median(syncFloors);
      console.log(
        `  floor with fs.writeFileSync (synchronous, as the store's 'none' calls are): ${ms(syncFloor)} per step; ours ${ratio(at1000, syncFloor)}`,
      );
    }
  }
}
