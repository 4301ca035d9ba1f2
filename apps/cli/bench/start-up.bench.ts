// Start-up of the `x` bin with and without Node's compile cache (issue 33; src/compile-cache.ts). Every sample is a
// fresh process of plain `node` on the built bin, its CPU (user + system) and wall time taken by bash's `time`
// (getrusage of the child, millisecond resolution). Two commands: `x --version` (the cheapest: commander and the
// CLI's own modules) and `x inspect <conversation>` (loads @x/agent, @x/store, @x/events and zod). Per round,
// every configuration runs once, in a rotating order, so a change of the machine's load hits them all alike:
// - Node 22: `off` (NODE_DISABLE_COMPILE_CACHE=1: what every run cost before), `cold` (an empty cache directory:
//   compiles and writes the cache, what the first run after an install or an upgrade pays), `warm` (a cache
//   filled beforehand: every later run);
// - Node 20, which has no compile cache for ES modules: `before` (dist/main.js, the CLI as the bin ran it before
//   the entry existed) and `after` (dist/bin.js), to show the entry costs nothing there.
// Medians over BENCH_RUNS rounds (default 12); the load average before and after is printed beside them.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode } from '../../../tooling/scripts/node-lines.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 12);
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const before = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'x-start-up-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true, maxRetries: 5 }));

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** Runs `node script ...args` under bash's `time`; rejects on a non-zero exit. */
function timed(node: string, script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const shell = 'TIMEFORMAT="%3R %3U %3S"; { time "$@" >/dev/null 2>/dev/null; } 2>&1';
    const child = spawn('bash', ['-c', shell, '_', node, script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const [real, user, sys] = out.trim().split(/\s+/).map(Number);
      if (code !== 0 || real === undefined || user === undefined || sys === undefined || Number.isNaN(real)) {
        reject(new Error(`${node} ${script} ${args.join(' ')}: exit ${code}, ${out}`));
        return;
      }
      resolve({ wallMs: real * 1000, cpuMs: (user + sys) * 1000 });
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const node20 = process.versions.node.startsWith('20.') ? process.execPath : ensureNode('20');
const node22 = ensureNode('22');
const home = join(work, 'home');
mkdirSync(home);
const baseEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, X_HOME: join(home, '.x') };

// One conversation to inspect, written by the offline demo model.
await timed(node20, bin, ['run', '--demo'], baseEnv);
const conversations = join(home, '.x', 'conversations');
const conversation = join(conversations, readdirSync(conversations)[0] ?? '');
const commands: Record<string, string[]> = { '--version': ['--version'], inspect: ['inspect', conversation] };

const warmCache = join(work, 'warm');
let coldCount = 0;
interface Configuration {
  name: string;
  run(args: string[]): Promise<Sample>;
}
const configurations: Configuration[] = [
  { name: 'node 22 off', run: (args) => timed(node22, bin, args, { ...baseEnv, NODE_DISABLE_COMPILE_CACHE: '1' }) },
  {
    name: 'node 22 cold',
    run: (args) => {
      coldCount += 1;
      return timed(node22, bin, args, { ...baseEnv, XDG_CACHE_HOME: join(work, `cold-${coldCount}`) });
    },
  },
  { name: 'node 22 warm', run: (args) => timed(node22, bin, args, { ...baseEnv, XDG_CACHE_HOME: warmCache }) },
  { name: 'node 20 before', run: (args) => timed(node20, before, args, baseEnv) },
  { name: 'node 20 after', run: (args) => timed(node20, bin, args, baseEnv) },
];

for (const args of Object.values(commands)) {
  for (let i = 0; i < 2; i += 1) await timed(node22, bin, args, { ...baseEnv, XDG_CACHE_HOME: warmCache });
}

const loadBefore = loadavg().map((load) => load.toFixed(2));
const samples = new Map<string, Sample[]>();
const pairs = Object.entries(commands).flatMap(([command, args]) =>
  configurations.map((configuration) => ({ key: `${command} | ${configuration.name}`, args, configuration })),
);
for (let round = 0; round < RUNS; round += 1) {
  for (let i = 0; i < pairs.length; i += 1) {
    const pair = pairs[(i + round) % pairs.length];
    if (pair === undefined) continue;
    const sample = await pair.configuration.run(pair.args);
    samples.set(pair.key, [...(samples.get(pair.key) ?? []), sample]);
  }
}
const loadAfter = loadavg().map((load) => load.toFixed(2));

console.log(
  `x start-up, ${RUNS} fresh processes each, medians (load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')})`,
);
console.log('command    | configuration   |   cpu ms |  wall ms');
for (const { key } of pairs) {
  const list = samples.get(key) ?? [];
  const [command, configuration] = key.split(' | ');
  console.log(
    `${(command ?? '').padEnd(10)} | ${(configuration ?? '').padEnd(15)} | ${median(list.map((s) => s.cpuMs))
      .toFixed(0)
      .padStart(8)} | ${median(list.map((s) => s.wallMs))
      .toFixed(0)
      .padStart(8)}`,
  );
}
