// Bundles a package's compiled `dist/` in place, after `tsc`: one ES module per entry of its `exports` map
// (`.`, `./testing`, ...), what they share in `dist/chunks/`, every other package left external. Why: Node loads
// an ES module graph file by file (resolve, open, read, compile each), and for `@x/agent`'s ~400 files that cost
// more than running them (`--cpu-prof` of the import, bench/peers.bench.ts in @x/agent): one file per entry
// takes ~40% off the cold import. The declarations (`.d.ts`) stay tsc's, file by file; the bundle's source
// maps chain tsc's, so stack traces and debuggers still point into `src/`. Run from the package's directory.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
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

/**
 * esbuild's `keepNames` helper, as it emits it, and ours. It names every function expression where it is created:
 * ~44 calls per step of a conversation (bench/peers.bench.ts in @x/agent), each a `defineProperty` on a fresh
 * closure, ~4% of a 1,000-step loop. Ours still names classes, functions with a prototype and any function whose
 * name is wrong (an esbuild-renamed `foo2`), which is what `keepNames` is kept for; it leaves an anonymous arrow,
 * method or async closure as JavaScript made it (`name` ''), so only stack traces of those closures change.
 */
const KEEP_NAMES_HELPER = 'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });';
const CHEAP_NAMES_HELPER =
  'var __name = (target, value) => target.name === "" && !Object.hasOwn(target, "prototype") ? target : ' +
  '__defProp(target, "name", { value, configurable: true });';
for (const file of filesUnder(staging)) {
  if (!file.endsWith('.js')) continue;
  const text = readFileSync(join(staging, file), 'utf8');
  if (!text.includes('var __name = ')) continue;
  if (!text.includes(KEEP_NAMES_HELPER))
    throw new Error(`${manifest.name}: esbuild's __name helper in ${file} changed`);
  writeFileSync(join(staging, file), text.replace(KEEP_NAMES_HELPER, CHEAP_NAMES_HELPER));
}

/**
 * The statement `__name(foo, "foo");` esbuild puts after every function declaration: a declared function's `name`
 * is already its identifier, so the call only redefines it to the same value. ~1,000 of them run at the top level
 * when `@x/agent` is imported (~1 ms of the cold import), and the nested ones on every call of the function that
 * declares them. Where esbuild renamed the function (`foo2` for `foo`) the call is kept, so names stay as written.
 * The line is emptied, not removed, so the source map's lines still match.
 */
for (const file of filesUnder(staging)) {
  if (!file.endsWith('.js')) continue;
  const text = readFileSync(join(staging, file), 'utf8');
  const declared = new Set(Array.from(text.matchAll(/\bfunction\*? ?([\w$]+)\(/g), (match) => match[1]));
  let kept = text.replace(/^[ \t]*__name\(([\w$]+), "([\w$]+)"\);$/gm, (statement, binding, name) =>
    binding === name && declared.has(binding) ? '' : statement,
  );
  // The same for a class: `var Foo = class extends Base { static { __name(this, "Foo"); } … }`. An anonymous class
  // assigned to `Foo` is named `Foo` before its static blocks run; a static block is a function made and called
  // when the class is defined (~100 at `@x/agent`'s import). Kept where the class has its own inner name
  // (`class _Foo`, then its name is `_Foo` without the call) or where a file defines a static `name` (a static method
  // `name` would be what the call overrides).
  if (!/static (get |set )?name\b/.test(kept)) {
    kept = kept.replace(
      /^var ([\w$]+) = class( extends [\w$.]+)? \{\n {2}static \{\n {4}__name\(this, "([\w$]+)"\);\n {2}\}\n/gm,
      (block, binding, heritage, name) =>
        binding === name ? `var ${binding} = class${heritage ?? ''} {\n\n\n\n` : block,
    );
  }
  if (kept !== text) writeFileSync(join(staging, file), kept);
}

/**
 * A module whose text holds one character outside ASCII is decoded and parsed by Node as a two-byte string: the
 * whole file, for a `≥` in one comment. esbuild (its default `charset: 'ascii'`) already escapes strings, regular
 * expressions and identifiers, so what is left is in the comments it keeps (JSDoc in class bodies): those become
 * ASCII, which takes ~8% off the cold import of `@x/agent` (bench/peers.bench.ts in @x/agent). A comment's
 * characters carry no source-map position, and each is replaced within its line, so the maps stay exact.
 */
const NON_ASCII = /[\u0080-\uffff]/;
const ASCII_SPELLINGS = new Map([
  ['…', '...'],
  ['≥', '>='],
  ['≤', '<='],
  ['≠', '!='],
  ['→', '->'],
  ['←', '<-'],
  ['↔', '<->'],
  ['×', 'x'],
  ['—', '--'],
  ['–', '-'],
  ['§', 'S'],
  ['‘', "'"],
  ['’', "'"],
  ['“', '"'],
  ['”', '"'],
]);
for (const file of filesUnder(staging)) {
  if (!file.endsWith('.js')) continue;
  const text = readFileSync(join(staging, file), 'utf8');
  if (!NON_ASCII.test(text)) continue;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (!NON_ASCII.test(line)) continue;
    const comment = /^\s*(\/\/|\/\*|\*)/.test(line) ? 0 : line.indexOf('//');
    if (comment === -1 || NON_ASCII.test(line.slice(0, comment))) {
      throw new Error(`${manifest.name}: ${file}:${index + 1} has a character outside ASCII outside a comment`);
    }
    lines[index] =
      line.slice(0, comment) +
      line.slice(comment).replace(/[\u0080-\u{10ffff}]/gu, (character) => ASCII_SPELLINGS.get(character) ?? '?');
  }
  writeFileSync(join(staging, file), lines.join('\n'));
}

/**
 * The bundles with their whitespace and comments taken out, by a second esbuild pass over each file (no bundling,
 * no renaming, no other rewriting; it reads each file's map, so the new maps still chain back to `src/`). Why: a
 * module's text stays on the heap for the process's life (V8 keeps the source for lazy compilation and
 * `Function.prototype.toString`), and a third of the three packages' ~1.33 MB was indentation and the JSDoc esbuild
 * keeps: the heap after importing `@x/agent` is ~0.3 MB smaller, which a short process's old generation (and its
 * first full collection) carries from start to exit. Compiling costs about the same (per token, not per byte).
 * Last, so the text rewrites above see esbuild's formatted output; tooling/scripts/test/bundle-stack-traces.test.ts
 * holds the maps to the `src/` line and column of a throw.
 */
const minified = 'dist.minified';
rmSync(minified, { recursive: true, force: true });
await build({
  entryPoints: filesUnder(staging)
    .filter((file) => file.endsWith('.js'))
    .map((file) => join(staging, file)),
  outdir: minified,
  outbase: staging,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
});
rmSync(staging, { recursive: true, force: true });
renameSync(minified, staging);

// A file that had no map before that pass (the re-export entries above, and a chunk of esbuild's helpers only) got
// one whose only source is the file as it was before the pass, which is not shipped: it keeps no map either.
for (const file of filesUnder(staging)) {
  if (!file.endsWith('.js.map')) continue;
  const map = JSON.parse(readFileSync(join(staging, file), 'utf8'));
  const unminified = resolve(minified, dirname(file));
  if (!map.sources.every((source) => resolve(unminified, source) === resolve(staging, file.slice(0, -'.map'.length))))
    continue;
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
