// Peer benchmark: x's in-memory conversation loop against the Vercel AI SDK's `generateText` loop, the same work
// on both sides. Each step the model (x: `createOfflineLLM`; the SDK: `MockLanguageModelV4` from `ai/test`) calls
// one tool that returns 2,048 characters, for N steps (x: `maxIterationsPerRun: N`; the SDK:
// `stopWhen: stepCountIs(N)`), at N = 10 and 1,000. Neither side persists anything: x keeps its events in a
// memory store, the SDK its steps in memory.
//
// Every run is a fresh process of plain `node` (no loader) on the built package, and the sides alternate (x
// first on even runs, the SDK first on odd ones) so that a change of the machine's load hits both. Figures per
// Node line (20, the machine's; 22 from node-lines.mjs), the median over BENCH_RUNS runs of:
// - the whole process: spawn to exit, start-up and import included, timed by this process;
// - the loop per step: the loop's own time (from creating the conversation / calling `generateText` to its
//   result) divided by N, timed inside the child;
// - the import of the framework (and zod, which both need for the tool's schema), timed inside the child;
// - the CPU time of the whole process (user + system, `process.cpuUsage()` at its end), which a loaded machine
//   disturbs less than wall time.
// The ratio is x / peer: below 1 x is faster. Beside the CPU ratio, the floor: the CPU of a process that only
// starts Node and imports zod (peers/floor-child.mjs, run in the same rounds), over the SDK's CPU. x's ratio
// cannot go below it, so at 10 steps it says how much of the gap is Node and zod rather than x. x runs with its
// defaults (sandboxed: bubblewrap is probed where a process first starts, which this loop's tool never does).
// BENCH_X_SANDBOX=unsandboxed opens the conversation unsandboxed instead.

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode } from '../../../tooling/scripts/node-lines.mjs';
import { AI_VERSION, ensureAiSdk } from './peers/ai-sdk.js';

const STEPS = Number(process.env.BENCH_STEPS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LINES = (process.env.BENCH_NODES ?? '20,22').split(',');
const POINTS = [...new Set([10, 1000].map((n) => Math.min(n, STEPS)))];

type Side = 'x' | 'ai' | 'floor';

interface Sample {
  wallMs: number;
  importMs: number;
  loopMs: number;
  cpuMs: number;
}

function runChild(node: string, script: string, steps: number, workspace: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, [script, String(steps), workspace], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) reject(new Error(`${script} ${steps} exited with ${code}:\n${stderr}`));
      else resolve({ wallMs, ...(JSON.parse(stdout) as Omit<Sample, 'wallMs'>) });
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const ms = (value: number): string => `${value.toFixed(value < 10 ? 3 : 0)} ms`;

async function benchLine(line: string, scripts: Record<Side, string>, workspace: string): Promise<void> {
  const node = line === process.versions.node.split('.')[0] ? process.execPath : ensureNode(line);
  const samples = new Map<string, Sample[]>();
  for (let run = 0; run < RUNS; run++) {
    for (const steps of POINTS) {
      const order: Side[] = run % 2 === 0 ? ['x', 'ai', 'floor'] : ['floor', 'ai', 'x'];
      for (const side of order) {
        // The floor does not depend on the step count: measured once per round.
        if (side === 'floor' && steps !== POINTS[0]) continue;
        const key = `${side}:${steps}`;
        samples.set(key, [...(samples.get(key) ?? []), await runChild(node, scripts[side], steps, workspace)]);
      }
    }
  }
  const version = await new Promise<string>((resolve) => {
    const child = spawn(node, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', () => resolve(out.trim()));
  });
  console.log(`\nNode ${version}, median of ${RUNS} runs each (ratio x / ai ${AI_VERSION}):`);
  const floorCpu = median(samples.get(`floor:${POINTS[0]}`)!.map((sample) => sample.cpuMs));
  console.log(`Floor (Node start-up + zod import, nothing else): ${ms(floorCpu)} CPU.`);
  console.log(
    '| steps | whole process x / ai | ratio | per step x / ai | ratio | import x / ai | CPU x / ai | ratio | floor / ai |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const steps of POINTS) {
    const of = (side: Side, pick: (sample: Sample) => number): number =>
      median(samples.get(`${side}:${steps}`)!.map(pick));
    const wall = [of('x', (s) => s.wallMs), of('ai', (s) => s.wallMs)] as const;
    const step = [of('x', (s) => s.loopMs / steps), of('ai', (s) => s.loopMs / steps)] as const;
    const imports = [of('x', (s) => s.importMs), of('ai', (s) => s.importMs)] as const;
    const cpu = [of('x', (s) => s.cpuMs), of('ai', (s) => s.cpuMs)] as const;
    console.log(
      `| ${steps} | ${ms(wall[0])} / ${ms(wall[1])} | ${(wall[0] / wall[1]).toFixed(2)}× | ` +
        `${ms(step[0])} / ${ms(step[1])} | ${(step[0] / step[1]).toFixed(2)}× | ${ms(imports[0])} / ${ms(imports[1])} | ` +
        `${ms(cpu[0])} / ${ms(cpu[1])} | ${(cpu[0] / cpu[1]).toFixed(2)}× | ${(floorCpu / cpu[1]).toFixed(2)}× |`,
    );
  }
}

const workspace = await mkdtemp(join(tmpdir(), 'x-peers-bench-'));
try {
  const scripts: Record<Side, string> = {
    // BENCH_X_CHILD: x-child.mjs of another build (a worktree of an earlier commit), for before/after figures.
    x: process.env.BENCH_X_CHILD ?? fileURLToPath(new URL('peers/x-child.mjs', import.meta.url)),
    ai: join(ensureAiSdk(), 'ai-child.mjs'),
    floor: fileURLToPath(new URL('peers/floor-child.mjs', import.meta.url)),
  };
  console.log(
    `Peer benchmark: x's memory loop (${scripts.x}) against ai ${AI_VERSION}'s generateText, a 2 KB tool call ` +
      `per step, neither persisting anything; ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}.`,
  );
  for (const line of LINES) await benchLine(line, scripts, workspace);
} finally {
  await rm(workspace, { recursive: true, force: true });
}
