// Preloaded by every `bench` script (`tsx --import ../../tooling/vitest-preset/bench-home.js ...`), before the
// benchmark imports any code: benchmarks run outside vitest, so without this they would run with the
// developer's real HOME, reading its ~/.x (hooks, skills, keys) and leaving conversations in it. HOME and
// X_HOME point to a fresh temporary directory, removed when the process exits; a benchmark's children inherit
// it (one started with the same preload keeps its parent's instead of making its own).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { homeEnvAt } from './test-home.js';

const inherited = process.env.X_BENCH_HOME;
if (inherited === undefined || inherited === '') {
  const home = mkdtempSync(join(tmpdir(), 'x-bench-home-'));
  Object.assign(process.env, homeEnvAt(home), { X_BENCH_HOME: home });
  process.on('exit', () => {
    if (!process.env.X_KEEP_TEST_HOME) rmSync(home, { recursive: true, force: true, maxRetries: 5 });
  });
} else {
  Object.assign(process.env, homeEnvAt(inherited));
}
