// What an npm consumer gets: the packed tarballs (exactly what `pnpm publish` would upload) installed with
// `npm install --engine-strict` into empty projects, then loaded with `import` and `require` on Node 20 and the
// current LTS lines, and typechecked by `tsc` with `skipLibCheck: false`. Two projects: everything (the CLI and
// the server pull the rest), and only @x/events + @x/store, which must not need any optional peer (openai, the AWS
// SDK, vitest) to install, load or typecheck.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode, extraNodeLines } from '../node-lines.mjs';
import { publishable } from '../publishable.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const npmCli = join(spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim(), 'npm', 'bin', 'npm-cli.js');
const typescriptVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.typescript;
const nodeTypesVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies['@types/node'];

let work: string;
const tarballs = new Map<string, string>();

function sh(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_yes: 'true' } });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

function createConsumer(name: string, packages: string[]): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  const specs = packages.map((pkg) => {
    const tarball = tarballs.get(pkg);
    if (tarball === undefined) throw new Error(`no tarball for ${pkg}`);
    return tarball;
  });
  sh(
    process.execPath,
    [
      npmCli,
      'install',
      '--engine-strict',
      '--no-audit',
      '--no-fund',
      ...specs,
      'zod@^4',
      `typescript@${typescriptVersion}`,
      `@types/node@${nodeTypesVersion}`,
    ],
    dir,
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
      },
      files: ['check.ts'],
    }),
  );
  return dir;
}

const nodeBinaries: { line: string; binary: string }[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'x-consumer-'));
  const packs = join(work, 'packs');
  mkdirSync(packs);
  for (const dir of publishable) {
    expect(existsSync(join(root, dir, 'dist')), `${dir} is built`).toBe(true);
    sh('pnpm', ['pack', '--pack-destination', packs], join(root, dir));
  }
  for (const file of readdirSync(packs)) {
    const manifest = spawnSync('tar', ['-xzOf', join(packs, file), 'package/package.json'], { encoding: 'utf8' });
    tarballs.set(JSON.parse(manifest.stdout).name, join(packs, file));
  }
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
    dir = createConsumer('all', ['@x/events', '@x/store', '@x/store-postgres', '@x/agent', '@x/server', '@x/cli']);
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
    sh(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], dir);
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
      const version = sh(binary, [join(dir, 'node_modules', '@x', 'cli', 'dist', 'bin.js'), '--version'], dir).trim();
      expect(version, `x --version on Node ${line}`).toMatch(/^\d+\.\d+\.\d+/);
    }
  }, 300_000);
});

describe('only @x/events and @x/store', () => {
  let dir: string;
  beforeAll(() => {
    dir = createConsumer('core', ['@x/events', '@x/store']);
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
    sh(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], dir);
  }, 300_000);

  it('loads with import and require on every Node line', () => {
    for (const { line, binary } of nodeBinaries) {
      expect(runNode(binary, dir, 'esm.mjs'), `import on Node ${line}`).toBe('function function');
      expect(runNode(binary, dir, 'cjs.cjs'), `require on Node ${line}`).toBe('function function');
    }
  }, 300_000);

  it('explains how to get the AWS SDK when the S3 store is used without it', () => {
    writeFileSync(
      join(dir, 's3.mjs'),
      "import { createS3FileStore } from '@x/store';\nconst store = createS3FileStore({ bucket: 'b', endpoint: 'http://127.0.0.1:9' });\nstore.read('x').then(() => console.log('read'), (error) => console.log(error.code, /npm install @aws-sdk\\/client-s3/.test(error.message)));\n",
    );
    expect(runNode(process.execPath, dir, 's3.mjs')).toBe('s3_sdk_missing true');
  }, 300_000);
});
