// Reads the per-package results written by @x/vitest-preset's reporter (`.test-results/summary.json`).
// Run directly (`node tooling/scripts/summary.mjs`), it prints one plain "N passed, N failed" line for the whole
// suite and exits non-zero when anything failed or a package that has tests recorded no results.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The workspace's package directories, as pnpm-workspace.yaml lists them: every folder of packages/, apps/ and
 * tooling/, and the single packages examples/ and docs/.
 */
export function packageDirs(root) {
  const dirs = [];
  for (const group of ['packages', 'apps', 'tooling']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir).sort()) dirs.push(join(groupDir, name));
  }
  for (const single of ['examples', 'docs']) dirs.push(join(root, single));
  return dirs;
}

/** The workspace packages whose package.json has `script` (default `test`): `{ name, dir }`, in a stable order. */
export function packagesWithScript(root, script = 'test') {
  const found = [];
  for (const dir of packageDirs(root)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    if (pkg.scripts?.[script]) found.push({ name: pkg.name, dir });
  }
  return found;
}

/** The workspace packages that have a `test` script: `{ name, dir }`. */
export function testPackages(root) {
  return packagesWithScript(root, 'test');
}

/** One package's recorded results (`{ passed, failed, skipped, durationMs }`), or undefined before its run ended. */
export function readPackageResults(dir) {
  const summary = join(dir, '.test-results', 'summary.json');
  return existsSync(summary) ? JSON.parse(readFileSync(summary, 'utf8')) : undefined;
}

/** Per-package counts, their totals, and the packages with a `test` script that recorded nothing. */
export function collectResults(root) {
  const totals = { passed: 0, failed: 0, skipped: 0, missing: [], packages: [] };
  for (const pkg of testPackages(root)) {
    const counts = readPackageResults(pkg.dir);
    if (counts === undefined) {
      totals.missing.push(pkg.name);
      continue;
    }
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
    totals.packages.push({ name: pkg.name, ...counts });
  }
  return totals;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = collectResults(fileURLToPath(new URL('../..', import.meta.url)));
  if (results.missing.length > 0) console.error(`no test results recorded for: ${results.missing.join(', ')}`);
  const failed = results.failed + results.missing.length;
  console.log(`${results.passed} passed, ${failed} failed${results.skipped ? `, ${results.skipped} skipped` : ''}`);
  process.exit(failed > 0 ? 1 : 0);
}
