// Bundles a package's compiled `dist/` in place, after `tsc`: one ES module per entry of its `exports` map
// (`.`, `./testing`, ...), what they share in `dist/chunks/`, every other package left external. Why: Node loads
// an ES module graph file by file (resolve, open, read, compile each), and for `@x/agent`'s ~400 files that cost
// more than running them (`--cpu-prof` of the import, bench/peers.bench.ts in @x/agent): one file per entry
// takes ~40% off the cold import. The declarations (`.d.ts`) stay tsc's, file by file; the bundle's source
// maps chain tsc's, so stack traces and debuggers still point into `src/`. Run from the package's directory.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const entryPoints = Object.values(manifest.exports)
  .map((target) => (typeof target === 'string' ? target : target.import))
  .filter((target) => typeof target === 'string' && target.startsWith('./dist/') && target.endsWith('.js'));
if (entryPoints.length === 0) throw new Error(`${manifest.name}: no ./dist/*.js entry in its exports map`);

const staging = 'dist.bundle';
rmSync(staging, { recursive: true, force: true });
await build({
  entryPoints,
  outdir: staging,
  outbase: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // Class and function names are observable (`error.constructor.name`, `name` in messages): keep them.
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});

/** Every file under `dir`, relative to it. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath ?? entry.path, entry.name)));
}

// An entry whose code all went into a chunk it shares with another entry (`@x/store/optional-dependency`, which
// the main entry uses too) is only re-exports: its map maps nothing (no sources). It gets no map and no
// `sourceMappingURL`, so every map shipped points at real sources; stack traces land in the chunk, which has one.
for (const file of filesUnder(staging)) {
  if (!file.endsWith('.js.map')) continue;
  const map = JSON.parse(readFileSync(join(staging, file), 'utf8'));
  if (map.sources.length > 0) continue;
  const script = join(staging, file.slice(0, -'.map'.length));
  const comment = `//# sourceMappingURL=${file.slice(file.lastIndexOf('/') + 1)}\n`;
  writeFileSync(script, readFileSync(script, 'utf8').replace(comment, ''));
  rmSync(join(staging, file));
}

// tsc's JavaScript is now inside the bundle: only its declarations stay.
for (const file of filesUnder('dist')) {
  if (file.endsWith('.js') || file.endsWith('.js.map')) rmSync(join('dist', file));
}
for (const file of filesUnder(staging)) {
  mkdirSync(dirname(join('dist', file)), { recursive: true });
  renameSync(join(staging, file), join('dist', file));
}
rmSync(staging, { recursive: true, force: true });
