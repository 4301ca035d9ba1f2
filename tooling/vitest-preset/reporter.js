// Writes each package's pass/fail counts to `.test-results/summary.json` so the root
// `pnpm test` can print one plain "N passed, N failed" line for the whole suite, and
// `.test-results/started.json` when the run starts, so it can say which packages are still running.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default class SummaryReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
    this.startedAt = Date.now();
    const dir = join(this.root, '.test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'started.json'), JSON.stringify({ startedAt: this.startedAt }));
  }
  onTestRunEnd(testModules, unhandledErrors = []) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      let moduleFailures = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') moduleFailures++;
        else skipped++;
      }
      // A file that failed outside its tests (it did not load, a beforeAll/afterAll hook failed) counts once.
      if (module.state() === 'failed' && moduleFailures === 0) moduleFailures = 1;
      failed += moduleFailures;
    }
    // Errors thrown outside any test (a timer firing after its test ended, ...) fail the run: count them too.
    failed += unhandledErrors.length;
    const dir = join(this.root, '.test-results');
    mkdirSync(dir, { recursive: true });
    const durationMs = Date.now() - this.startedAt;
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ passed, failed, skipped, durationMs }));
  }
}
