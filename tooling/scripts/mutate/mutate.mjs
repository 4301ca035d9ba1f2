#!/usr/bin/env node
// `pnpm mutate`: one-line mutation testing of a source file. Applies one mutant at a time (mutants.mjs), runs the
// given vitest files against it, restores the file, and lists the mutants the tests did not kill: lines whose
// behaviour no test checks. See tooling/scripts/README.md.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { applyMutant, mutantsOf, sample } from './mutants.mjs';

const USAGE = `usage: pnpm mutate --file <source file> --tests "<test files>" [--max 40] [--seed 1]
       [--lines A-B] [--timeout 240] [--build "<command>"] [--list] [--out report.json]
Runs \`vitest run --bail=1 <test files>\` in the file's package once as it is (it must pass), then once per mutant.
--build runs a shell command in the package before each test run (and once more after the file is restored), for
tests that run the built package (a CLI's bin) rather than its sources.
Exit status: 0 when every mutant tried was killed, 1 when some survived, 2 on a usage error or a failing baseline.`;

function fail(message) {
  console.error(`mutate: ${message}\n${USAGE}`);
  process.exit(2);
}

let options;
try {
  ({ values: options } = parseArgs({
    options: {
      file: { type: 'string' },
      tests: { type: 'string', default: '' },
      max: { type: 'string', default: '40' },
      seed: { type: 'string', default: '1' },
      lines: { type: 'string' },
      timeout: { type: 'string', default: '240' },
      build: { type: 'string' },
      list: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  }));
} catch (error) {
  fail(error.message);
}
if (options.file === undefined) fail('--file is required');
// `pnpm mutate` runs in the repository's root; paths are the caller's, relative to where pnpm was invoked.
const callerDir = process.env.INIT_CWD ?? process.cwd();
const file = resolve(callerDir, options.file);
if (!existsSync(file)) fail(`no such file: ${file}`);
const packageDir = nearestPackage(dirname(file));
// vitest runs in the file's package, so each test file is named relative to it.
const tests = options.tests
  .split(/\s+/)
  .filter(Boolean)
  .map((test) => relative(packageDir, resolve(callerDir, test)));
const [from, to] = (options.lines ?? '1-').split('-').map((n) => (n === '' ? undefined : Number(n)));
const max = Number(options.max);
const seed = Number(options.seed);
const timeoutMs = Number(options.timeout) * 1000;
if (![max, seed, timeoutMs].every(Number.isFinite) || Number.isNaN(from) || Number.isNaN(to))
  fail('--max, --seed, --timeout and --lines take numbers');

const original = readFileSync(file, 'utf8');
const chosen = sample(mutantsOf(original, { from, to }), max, seed);
const shown = relative(callerDir, file);
if (options.list) {
  for (const m of chosen) console.log(`${m.line}: ${m.original}  =>  ${m.mutated}`);
  process.exit(0);
}
if (tests.length === 0) fail('--tests is required (the vitest files that should catch a change to this file)');

let mutated = false;
const restore = () => {
  if (mutated) writeFileSync(file, original);
  mutated = false;
};
/** The command under way (a build or the tests), stopped with the tool. */
let running;
// The runs are awaited, so a signal is handled at once: the command under way is stopped and the file restored.
for (const [signal, number] of [
  ['SIGINT', 2],
  ['SIGTERM', 15],
  ['SIGHUP', 1],
])
  process.on(signal, () => {
    if (running !== undefined) stopGroup(running);
    restore();
    console.error(
      `mutate: stopped by ${signal}; ${shown} restored${options.build === undefined ? '' : ' (not rebuilt)'}`,
    );
    process.exit(128 + number);
  });

/** Stops a command and what it started (vitest's workers): it leads a process group of its own (`detached`). */
function stopGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Runs a command in the package; resolves true when it exits 0 within the timeout. */
function run(command, args, { shell = false } = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: packageDir,
      shell,
      stdio: 'ignore',
      detached: true,
      env: { ...process.env, CI: 'true' },
    });
    running = child;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(child);
    }, timeoutMs);
    child.on('error', () => done({ ok: false, timedOut }));
    child.on('exit', (code) => {
      clearTimeout(timer);
      running = undefined;
      done({ ok: code === 0 && !timedOut, timedOut });
    });
  });
}

async function build() {
  if (options.build === undefined) return true;
  return (await run(options.build, [], { shell: true })).ok;
}

async function runTests() {
  // A mutant the build refuses (a syntax or type error) is caught before any test: count it killed.
  if (!(await build())) return 'killed (build)';
  const { ok, timedOut } = await run('pnpm', ['exec', 'vitest', 'run', '--bail=1', '--reporter=dot', ...tests]);
  if (timedOut) return 'killed (timeout)';
  return ok ? 'SURVIVED' : 'killed';
}

if ((await runTests()) !== 'SURVIVED')
  fail(`the tests fail (or time out) without any mutant: fix them first (${packageDir})`);
const results = [];
try {
  for (const [n, mutant] of chosen.entries()) {
    mutated = true;
    writeFileSync(file, applyMutant(original, mutant));
    const status = await runTests();
    restore();
    results.push({ line: mutant.line, kind: mutant.kind, original: mutant.original, mutated: mutant.mutated, status });
    console.log(
      `[${n + 1}/${chosen.length}] ${status.padEnd(16)} ${mutant.line}: ${mutant.original}  =>  ${mutant.mutated}`,
    );
  }
} finally {
  restore();
  await build();
}
const survived = results.filter((r) => r.status === 'SURVIVED');
console.log(
  `\n${shown}: ${results.length} mutants, ${results.length - survived.length} killed, ${survived.length} survived`,
);
for (const s of survived) console.log(`  survived ${s.line}: ${s.original}  =>  ${s.mutated}`);
if (options.out !== undefined)
  writeFileSync(options.out, `${JSON.stringify({ file: shown, tests, results }, null, 2)}\n`);
process.exit(survived.length === 0 ? 0 : 1);

function nearestPackage(dir) {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) fail(`no package.json above ${dir}`);
  }
}
