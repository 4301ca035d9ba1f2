// Writes each package's pass/fail counts to `.test-results/summary.json` so the root
// `pnpm test` can print one plain "N passed, N failed" line for the whole suite.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default class SummaryReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
  }
  onTestRunEnd(testModules) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    const dir = join(this.root, '.test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'summary.json'), JSON.stringify({ passed, failed, skipped }));
  }
}
