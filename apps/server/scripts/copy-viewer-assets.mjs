// Copies the built web viewer (@x/viewer's dist/) into dist/viewer-assets/, so the published package
// ships the static files and serves them without any UI code in its own sources.
import { cp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const source = join(dirname(require.resolve('@x/viewer/package.json')), 'dist');
const target = fileURLToPath(new URL('../dist/viewer-assets', import.meta.url));
await rm(target, { recursive: true, force: true });
await cp(source, target, { recursive: true });
