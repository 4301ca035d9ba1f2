// Writes src/json/package-version.ts from package.json, so the parser knows its version without reading
// files at run time (no node: built-ins: the package runs in browsers). The build runs it, so a version bump
// by `changeset version` reaches the next build; a test checks the committed file matches package.json.
import { readFileSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const target = new URL('../src/json/package-version.ts', import.meta.url);
const text = `// Written by scripts/write-package-version.mjs from package.json; do not edit.\nexport const PACKAGE_VERSION = '${version}';\n`;
let current = '';
try {
  current = readFileSync(target, 'utf8');
} catch {}
if (current !== text) writeFileSync(target, text);
