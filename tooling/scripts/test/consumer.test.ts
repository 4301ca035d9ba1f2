// What an npm consumer gets: the packed tarballs (exactly what `pnpm publish` would upload) installed with
// `npm install --engine-strict` into empty projects, then loaded with `import` and `require` on Node 20 and the
// current LTS lines, and typechecked by `tsc` with `skipLibCheck: false`. Two projects: everything (every package
// and every optional peer dependency, at the ranges the packages declare), and only @x/events + @x/store, which
// must not need any optional peer (openai, the AWS SDK, vitest) to install, load or typecheck. What a project
// with fewer optional peers installs, and the errors naming a missing one, are in install-footprint.test.ts.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode, extraNodeLines } from '../node-lines.mjs';
import { createConsumer, packTarballs, sh, typecheck } from './support/consumer-project.js';

let work: string;
let tarballs: Map<string, string>;

/** Every optional peer dependency, at the ranges the packages declare: the "everything" project installs them all. */
const optionalPeers = [
  'openai@^6.49.0',
  '@anthropic-ai/sdk@^1.12.0',
  '@google/genai@^2.32.0 || ^3.0.0',
  '@modelcontextprotocol/sdk@^1.32.0',
  '@a2a-js/sdk@^1.3.0',
  'pg@^8.23.0',
  '@aws-sdk/client-s3@^3.1000.0',
  '@opentelemetry/context-async-hooks@^2.12.0',
  '@opentelemetry/core@^2.12.0',
  '@opentelemetry/resources@^2.12.0',
  '@opentelemetry/sdk-trace-base@^2.12.0',
  '@opentelemetry/sdk-metrics@^2.12.0',
  '@opentelemetry/exporter-trace-otlp-http@^0.223.0',
  '@opentelemetry/exporter-metrics-otlp-http@^0.223.0',
];

const nodeBinaries: { line: string; binary: string }[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'x-consumer-'));
  tarballs = packTarballs(work);
  nodeBinaries.push({ line: process.versions.node.split('.')[0] ?? '20', binary: process.execPath });
  for (const line of extraNodeLines) nodeBinaries.push({ line, binary: ensureNode(line) });
}, 600_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true, maxRetries: 5 });
}, 300_000);

function runNode(binary: string, dir: string, file: string): string {
  return sh(binary, [file], dir).trim();
}

describe('every package, installed from its tarball', () => {
  let dir: string;
  beforeAll(() => {
    dir = createConsumer(work, tarballs, {
      name: 'all',
      packages: ['@x/events', '@x/client', '@x/store', '@x/store-postgres', '@x/agent', '@x/server', '@x/cli'],
      extra: optionalPeers,
    }).dir;
    writeFileSync(
      join(dir, 'esm.mjs'),
      [
        "import { createEvent } from '@x/events';",
        "import { createMemoryFileStore } from '@x/store';",
        "import { createAgent } from '@x/agent';",
        "import { startServer } from '@x/server';",
        "import * as client from '@x/server/client';",
        'console.log([createEvent, createMemoryFileStore, createAgent, startServer].map((f) => typeof f).join(), Object.keys(client).length > 0);',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'cjs.cjs'),
      [
        "const { createEvent } = require('@x/events');",
        "const { createMemoryFileStore } = require('@x/store');",
        "const { createAgent } = require('@x/agent');",
        "const { startServer } = require('@x/server');",
        "const client = require('@x/server/client');",
        'console.log([createEvent, createMemoryFileStore, createAgent, startServer].map((f) => typeof f).join(), Object.keys(client).length > 0);',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'check.ts'),
      [
        "import { createEvent } from '@x/events';",
        "import { createMemoryFileStore, createS3FileStore } from '@x/store';",
        "import { createAgent } from '@x/agent';",
        "import { startServer } from '@x/server';",
        "import { RemoteConversation } from '@x/server/client';",
        'export const used = [createEvent, createMemoryFileStore, createS3FileStore, createAgent, startServer, RemoteConversation];',
      ].join('\n'),
    );
  }, 600_000);

  it('installs with --engine-strict on Node 20 and never pulls a Node 22-only dependency', () => {
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } }>;
    };
    const needsNewerNode = Object.entries(lock.packages)
      .filter(([, entry]) => /^>=\s*2[2-9]/.test(entry.engines?.node ?? ''))
      .map(([path]) => path);
    expect(needsNewerNode).toEqual([]);
  }, 300_000);

  it('typechecks with skipLibCheck false', () => {
    typecheck(dir);
  }, 300_000);

  it('loads with import and require on every Node line', () => {
    for (const { line, binary } of nodeBinaries) {
      expect(runNode(binary, dir, 'esm.mjs'), `import on Node ${line}`).toBe(
        'function,function,function,function true',
      );
      expect(runNode(binary, dir, 'cjs.cjs'), `require on Node ${line}`).toBe(
        'function,function,function,function true',
      );
    }
  }, 300_000);

  it('gives a working `x` command', () => {
    for (const { line, binary } of nodeBinaries) {
      // Node 22+ writes x's compile cache under XDG_CACHE_HOME, which the test home points at the real one.
      const cache = { XDG_CACHE_HOME: join(work, 'xdg-cache') };
      const version = sh(
        binary,
        [join(dir, 'node_modules', '@x', 'cli', 'dist', 'bin.js'), '--version'],
        dir,
        cache,
      ).trim();
      expect(version, `x --version on Node ${line}`).toMatch(/^\d+\.\d+\.\d+/);
    }
  }, 300_000);
});

describe('only @x/events and @x/store', () => {
  let dir: string;
  beforeAll(() => {
    dir = createConsumer(work, tarballs, { name: 'core', packages: ['@x/events', '@x/store'] }).dir;
    writeFileSync(
      join(dir, 'esm.mjs'),
      "import { createEvent } from '@x/events';\nimport { createMemoryFileStore } from '@x/store';\nconsole.log(typeof createEvent, typeof createMemoryFileStore);\n",
    );
    writeFileSync(
      join(dir, 'cjs.cjs'),
      "const { createEvent } = require('@x/events');\nconst { createMemoryFileStore } = require('@x/store');\nconsole.log(typeof createEvent, typeof createMemoryFileStore);\n",
    );
    writeFileSync(
      join(dir, 'check.ts'),
      "import { createEvent, toChatCompletionsMessages } from '@x/events';\nimport { createMemoryFileStore, createS3FileStore } from '@x/store';\nexport const used = [createEvent, toChatCompletionsMessages, createMemoryFileStore, createS3FileStore];\n",
    );
  }, 600_000);

  it('installs no optional peer', () => {
    for (const optional of ['openai', '@aws-sdk/client-s3', 'vitest', 'fast-check']) {
      expect(existsSync(join(dir, 'node_modules', optional)), optional).toBe(false);
    }
  }, 300_000);

  it('typechecks with skipLibCheck false without the optional peers', () => {
    typecheck(dir);
  }, 300_000);

  it('loads with import and require on every Node line', () => {
    for (const { line, binary } of nodeBinaries) {
      expect(runNode(binary, dir, 'esm.mjs'), `import on Node ${line}`).toBe('function function');
      expect(runNode(binary, dir, 'cjs.cjs'), `require on Node ${line}`).toBe('function function');
    }
  }, 300_000);

  it('exports the shared optional-dependency loader as @x/store/optional-dependency, typed and loadable', () => {
    writeFileSync(
      join(dir, 'optional.mjs'),
      "import { isPackageNotFound, loadOptionalDependency } from '@x/store/optional-dependency';\nloadOptionalDependency({ packageName: 'x-not-installed', load: () => import('x-not-installed'), onMissing: (cause) => new Error(String(isPackageNotFound(cause, 'x-not-installed'))) }).catch((error) => console.log(typeof isPackageNotFound, error.message));\n",
    );
    writeFileSync(
      join(dir, 'optional-check.ts'),
      "import { type LoadOptionalDependencyOptions, loadOptionalDependencies } from '@x/store/optional-dependency';\nexport const options: LoadOptionalDependencyOptions<'pg', unknown> = { packageName: 'pg', load: async () => ({}), onMissing: (cause) => new Error(String(cause)) };\nexport const loaded: Promise<{ 'node:path': typeof import('node:path') }> = loadOptionalDependencies({ 'node:path': () => import('node:path') }, () => new Error('missing'));\n",
    );
    typecheck(dir);
    for (const { line, binary } of nodeBinaries) {
      expect(runNode(binary, dir, 'optional.mjs'), `import on Node ${line}`).toBe('function true');
    }
  }, 300_000);

  it('explains how to get the AWS SDK when the S3 store is used without it', () => {
    writeFileSync(
      join(dir, 's3.mjs'),
      "import { createS3FileStore } from '@x/store';\nconst store = createS3FileStore({ bucket: 'b', endpoint: 'http://127.0.0.1:9' });\nstore.read('x').then(() => console.log('read'), (error) => console.log(error.name, error.code, /npm install @aws-sdk\\/client-s3@/.test(error.message)));\n",
    );
    expect(runNode(process.execPath, dir, 's3.mjs')).toBe('MissingDependencyError missing_dependency true');
  }, 300_000);
});
