// Prints one plain "N passed, N failed" line for the whole suite from the per-package
// results written by @x/vitest-preset's reporter. Exits non-zero when a package that has
// tests recorded no results (its tests did not run) or when anything failed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const group of ['packages', 'apps', 'tooling']) {
  const groupDir = join(root, group);
  if (!existsSync(groupDir)) continue;
  for (const name of readdirSync(groupDir)) {
    const dir = join(groupDir, name);
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    if (!pkg.scripts?.test) continue;
    const summary = join(dir, '.test-results', 'summary.json');
    if (!existsSync(summary)) {
      missing.push(pkg.name);
      continue;
    }
    const counts = JSON.parse(readFileSync(summary, 'utf8'));
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped;
  }
}
if (missing.length > 0) console.error(`no test results recorded for: ${missing.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
