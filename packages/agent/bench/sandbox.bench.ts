// What the sandbox costs per command: a one-shot `true` and a hook-style `/bin/sh -c` command, each run
// sandboxed (bubblewrap: namespaces, mounts, cgroups, prlimit) through runSandboxed and, as the baseline,
// spawned directly as the unsandboxed path does. Sequential, one at a time, so the figure is the latency a
// hook or a shell-route command adds. BENCH_SANDBOX_COMMANDS (or BENCH_RUNS) sets how many of each.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, detectSandboxSupport, runSandboxed, type Sandbox } from '../src/index.js';

const COMMANDS = Number(process.env.BENCH_SANDBOX_COMMANDS ?? process.env.BENCH_RUNS ?? 50);
const HOOK = 'read input; test -n "$input" && echo "{\\"decision\\": \\"allow\\"}"';

function unsandboxed(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.stdin.on('error', () => undefined);
    child.stdin.end('{"event": "PreToolUse"}\n');
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
  });
}

async function sandboxed(sandbox: Sandbox, command: string, args: string[], env: Record<string, string>) {
  const result = await runSandboxed(sandbox, {
    command,
    args,
    cwd: sandbox.workspace,
    env,
    stdin: '{"event": "PreToolUse"}\n',
    wallTimeMs: 60_000,
  });
  if (result.exitCode !== 0) throw new Error(`sandboxed ${command} exited ${result.exitCode}: ${result.stderr}`);
}

async function time(run: () => Promise<void>): Promise<number[]> {
  await run();
  const samples: number[] = [];
  for (let index = 0; index < COMMANDS; index += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return `median ${median.toFixed(2).padStart(7)} ms   mean ${mean.toFixed(2).padStart(7)} ms`;
}

const support = await detectSandboxSupport();
if (!support.available) {
  console.error(`sandbox benchmark: ${support.reason}; run tooling/scripts/ensure-bubblewrap.sh`);
  process.exit(1);
}
const workspace = mkdtempSync(join(tmpdir(), 'x-sandbox-bench-'));
const env = { PATH: '/usr/bin:/bin', HOME: workspace };
console.log(`# sandbox benchmark — node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`);
console.log(
  `bubblewrap ${support.version}; ${COMMANDS} commands of each kind, one at a time; load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
console.log('baseline: the same command spawned directly (the unsandboxed path)');
const plain = await createSandbox({ policy: {}, workspace });
const limited = await createSandbox({
  policy: { limits: { processes: 64, fileSizeBytes: 100_000_000, cpuTimeSeconds: 60, memoryBytes: 2_000_000_000 } },
  workspace,
});
try {
  const rows: [string, () => Promise<void>][] = [
    ['true, unsandboxed', () => unsandboxed('/bin/true', [], workspace, env)],
    ['true, sandboxed', () => sandboxed(plain, '/bin/true', [], env)],
    ['true, sandboxed + limits', () => sandboxed(limited, '/bin/true', [], env)],
    ['sh -c hook, unsandboxed', () => unsandboxed('/bin/sh', ['-c', HOOK], workspace, env)],
    ['sh -c hook, sandboxed', () => sandboxed(plain, '/bin/sh', ['-c', HOOK], env)],
  ];
  for (const [label, run] of rows) console.log(`${label.padEnd(26)} ${summary(await time(run))}`);
} finally {
  await plain.dispose();
  await limited.dispose();
  rmSync(workspace, { recursive: true, force: true });
}
