// `pnpm test`: lint, typecheck, build and every package's tests, then one plain "N passed, N failed" line.
// The summary prints whatever happened: turbo runs with --continue so one failing package does not hide the
// others' failures, and a task that failed before its tests could run (lint, typecheck, build, a test setup such
// as a missing moto) is named and counted as a failure, so the closing line never says "0 failed" for a broken run.
// On the way it shows progress: each task as it ends, each package's test counts and time, and every few minutes
// which packages' tests are still running. A failed task's output is printed whole.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectResults, packageDirs, readPackageResults, testPackages } from './summary.mjs';
import { snapshotUntouched } from './test-guards.mjs';
import { formatDuration, printTaskOutput, runTurboWithProgress } from './turbo-progress.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const started = Date.now();
// As many packages at once as there are cores (2 on CI), each running its test files one at a time: the
// integration tests start servers, PostgreSQL, chromium and child processes of their own.
const concurrency = process.env.X_TEST_CONCURRENCY ?? String(Math.max(2, availableParallelism()));
const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
  X_TEST_MAX_WORKERS: process.env.X_TEST_MAX_WORKERS ?? '1',
};
const packages = testPackages(root);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  return result.status ?? 1;
}

// Results of an earlier run must not be mistaken for this one's.
for (const dir of packageDirs(root)) rmSync(join(dir, '.test-results'), { recursive: true, force: true });
const guards = snapshotUntouched(root);

console.log(`▶ biome (lint, format)`);
const biome = run('pnpm', ['exec', 'biome', 'ci', '--colors=off', '.']);
const summaryDir = join(root, '.turbo', 'runs');
const before = new Set(existsSync(summaryDir) ? readdirSync(summaryDir) : []);
console.log(`▶ lint, typecheck, build and tests of ${packages.length} packages, ${concurrency} tasks at a time`);
let lastProgress = Date.now();
const {
  code: turbo,
  outputs,
  printed,
} = await runTurboWithProgress(
  [
    'lint',
    'typecheck',
    'build',
    'test',
    `--concurrency=${concurrency}`,
    '--continue=dependencies-successful',
    '--summarize',
  ],
  {
    root,
    env,
    onTaskDone: ({ pkg, task, failed }) => {
      lastProgress = Date.now();
      const mark = failed ? '✘' : '✔';
      if (task !== 'test') return `  ${mark} ${pkg} ${task}${failed ? ' failed' : ''}`;
      const dir = packages.find((candidate) => candidate.name === pkg)?.dir;
      const counts = dir === undefined ? undefined : readPackageResults(dir);
      if (counts === undefined) return `  ✘ ${pkg} tests: no results recorded`;
      const mark2 = counts.failed > 0 || failed ? '✘' : '✔';
      return `  ${mark2} ${pkg} tests: ${counts.passed} passed, ${counts.failed} failed (${formatDuration(counts.durationMs ?? 0)})`;
    },
    heartbeat: {
      everyMs: 30_000,
      tick: () => {
        if (Date.now() - lastProgress < 120_000) return;
        lastProgress = Date.now();
        const running = packages
          .filter(({ dir }) => existsSync(join(dir, '.test-results', 'started.json')) && !readPackageResults(dir))
          .map(({ name, dir }) => {
            const { startedAt } = JSON.parse(readFileSync(join(dir, '.test-results', 'started.json'), 'utf8'));
            return `${name} (${formatDuration(Date.now() - startedAt)})`;
          });
        const what = running.length > 0 ? `tests still running: ${running.join(', ')}` : 'still building and checking';
        console.log(`  … ${formatDuration(Date.now() - started)}: ${what}`);
      },
    },
  },
);
const failedTasks = [];
if (existsSync(summaryDir)) {
  const fresh = readdirSync(summaryDir).filter((name) => !before.has(name));
  for (const name of fresh) {
    const summary = JSON.parse(readFileSync(join(summaryDir, name), 'utf8'));
    for (const task of summary.tasks ?? []) {
      const code = task.execution?.exitCode;
      if (code !== undefined && code !== null && code !== 0) failedTasks.push(task.taskId);
    }
    rmSync(join(summaryDir, name), { force: true });
  }
}
mkdirSync(summaryDir, { recursive: true });
// A failure whose output did not say so in a way the progress reader knows: its output now, in full.
for (const task of failedTasks) if (!printed.has(task)) printTaskOutput(task, outputs.get(task) ?? []);

const results = collectResults(root);
const problems = [];
if (biome !== 0) problems.push('biome (lint/format) failed');
for (const task of failedTasks) problems.push(`${task} failed`);
for (const name of results.missing) problems.push(`${name}: no test results recorded (its tests did not run)`);
for (const { name, failed } of results.packages) if (failed > 0) problems.push(`${name}: ${failed} failed`);
if (turbo !== 0 && failedTasks.length === 0) problems.push(`turbo exited with ${turbo}`);
const leaks = guards.check();
for (const leak of leaks) problems.push(leak);

// A task that failed outside the tests (or tests that never ran) counts as one failure each, so the line is honest.
const nonTestFailures =
  (biome !== 0 ? 1 : 0) + failedTasks.filter((task) => !task.endsWith('#test')).length + leaks.length;
const failed = results.failed + nonTestFailures + results.missing.length;
if (problems.length > 0) {
  console.error('\nFailures:');
  for (const problem of problems) console.error(`  - ${problem}`);
}
console.log(`\nin ${formatDuration(Date.now() - started)}`);
console.log(`\n${results.passed} passed, ${failed} failed${results.skipped ? `, ${results.skipped} skipped` : ''}`);
process.exit(failed > 0 || biome !== 0 || turbo !== 0 ? 1 : 0);
