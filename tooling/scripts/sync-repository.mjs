#!/usr/bin/env node
// One place to change the repository URL: the root package.json's `repository`. This copies it into every
// publishable package (with that package's `directory`, which npm shows as the source link). With `--check` it
// changes nothing and exits 1 when a package disagrees (`pnpm release` runs the check first).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishable } from './publishable.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const check = process.argv.includes('--check');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const { repository } = readJson(join(root, 'package.json'));
if (typeof repository?.url !== 'string') {
  console.error('The root package.json has no repository.url.');
  process.exit(1);
}

let stale = 0;
for (const dir of publishable) {
  const file = join(root, dir, 'package.json');
  const manifest = readJson(file);
  const wanted = { type: repository.type ?? 'git', url: repository.url, directory: dir };
  if (JSON.stringify(manifest.repository) === JSON.stringify(wanted)) continue;
  stale += 1;
  if (check) {
    console.error(
      `${dir}/package.json: repository is ${JSON.stringify(manifest.repository)}, expected ${JSON.stringify(wanted)}`,
    );
    continue;
  }
  manifest.repository = wanted;
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`${dir}/package.json: repository set to ${wanted.url} (${dir})`);
}
if (check && stale > 0) {
  console.error('Run `pnpm sync-repository` to copy the root repository into every package.');
  process.exit(1);
}
