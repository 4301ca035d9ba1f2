// Bundles the browser page of the react-chat example (src/react-chat/page.tsx) into dist/react-chat/page.js.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/react-chat/page.tsx'],
  outfile: 'dist/react-chat/page.js',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  minify: true,
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
