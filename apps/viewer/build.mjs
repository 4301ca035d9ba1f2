// Bundles the viewer into dist/: index.html, app.js, app.css and manifest.json (the files @x/server
// copies into its own dist and serves). One minified ES module, no source maps, no external requests.
// @x/client and @x/react are bundled in (from their built dist/, so build them first: turbo does).
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * zod 4 re-exports every locale as a namespace (`z.locales`, `z.core.locales`), which no bundler can tree-shake
 * (~250 KiB minified). Nothing here switches locale, and English, the default, is imported by zod's schemas
 * directly, so the namespace of the others is left empty.
 */
const zodWithoutLocales = {
  name: 'zod-without-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: 'zod-locales', namespace: 'zod-without-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-without-locales' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};
const dist = `${here}dist`;
await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
const result = await build({
  absWorkingDir: here,
  entryPoints: [`${here}src/main.tsx`],
  outfile: `${dist}/app.js`,
  bundle: true,
  format: 'esm',
  minify: true,
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  // @x/react is written against React; Preact's compat layer is its drop-in (useSyncExternalStore included).
  // Aliased paths resolve from absWorkingDir, so it is this package's preact.
  alias: { react: 'preact/compat', 'react-dom': 'preact/compat', 'react/jsx-runtime': 'preact/jsx-runtime' },
  // Browser code only: a Node built-in reaching the bundle is a build error, not a runtime surprise.
  platform: 'browser',
  plugins: [zodWithoutLocales],
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
await copyFile(`${here}src/index.html`, `${dist}/index.html`);
// One stylesheet, from a file per area (each under the 400-line limit).
const sheets = await Promise.all(['styles.css', 'pictures.css'].map((name) => readFile(`${here}src/${name}`, 'utf8')));
await writeFile(`${dist}/app.css`, sheets.join('\n'));
const files = ['index.html', 'app.js', 'app.css'];
await writeFile(`${dist}/manifest.json`, `${JSON.stringify({ files }, null, 2)}\n`);
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
process.stdout.write(`viewer: app.js ${(bytes / 1024).toFixed(1)} KiB\n`);
