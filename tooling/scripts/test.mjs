// `pnpm test`: lint, typecheck, build and every package's tests, then one plain "N passed, N failed" line.
// The summary prints whatever happened: turbo runs with --continue so one failing package does not hide the
// others' failures, and a task that failed before its tests could run (lint, typecheck, build, a test setup such
// as a missing moto) is named and counted as a failure, so the closing line never says "0 failed" for a broken run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectResults, packageDirs } from './summary.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  return result.status ?? 1;
}

// Results of an earlier run must not be mistaken for this one's.
for (const dir of packageDirs(root)) rmSync(join(dir, '.test-results'), { recursive: true, force: true });

const biome = run('pnpm', ['exec', 'biome', 'ci', '--colors=off', '.']);
const summaryDir = join(root, '.turbo', 'runs');
const before = new Set(existsSync(summaryDir) ? readdirSync(summaryDir) : []);
const turbo = run('pnpm', [
  'exec',
  'turbo',
  'run',
  'lint',
  'typecheck',
  'build',
  'test',
  '--continue=dependencies-successful',
  '--output-logs=errors-only',
  '--summarize',
]);
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

const results = collectResults(root);
const problems = [];
if (biome !== 0) problems.push('biome (lint/format) failed');
for (const task of failedTasks) problems.push(`${task} failed`);
for (const name of results.missing) problems.push(`${name}: no test results recorded (its tests did not run)`);
for (const { name, failed } of results.packages) if (failed > 0) problems.push(`${name}: ${failed} failed`);
if (turbo !== 0 && failedTasks.length === 0) problems.push(`turbo exited with ${turbo}`);

// A task that failed outside the tests (or tests that never ran) counts as one failure each, so the line is honest.
const nonTestFailures = (biome !== 0 ? 1 : 0) + failedTasks.filter((task) => !task.endsWith('#test')).length;
const failed = results.failed + nonTestFailures + results.missing.length;
if (problems.length > 0) {
  console.error('\nFailures:');
  for (const problem of problems) console.error(`  - ${problem}`);
}
console.log(`\n${results.passed} passed, ${failed} failed${results.skipped ? `, ${results.skipped} skipped` : ''}`);
process.exit(failed > 0 || biome !== 0 || turbo !== 0 ? 1 : 0);
