// Empty npm projects that install the packed tarballs (exactly what `pnpm publish` would upload), shared by the
// consumer and install-footprint tests.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishable } from '../../publishable.mjs';

export const root = fileURLToPath(new URL('../../../..', import.meta.url));
const npmCli = join(spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim(), 'npm', 'bin', 'npm-cli.js');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const typescriptVersion: string = rootManifest.devDependencies.typescript;
const nodeTypesVersion: string = rootManifest.devDependencies['@types/node'];

export function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_yes: 'true', ...env },
  });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** Packs every published package into `work/packs`; returns each package's tarball by name. */
export function packTarballs(work: string): Map<string, string> {
  const packs = join(work, 'packs');
  mkdirSync(packs);
  for (const dir of publishable) {
    if (!existsSync(join(root, dir, 'dist'))) throw new Error(`${dir} is not built`);
    sh('pnpm', ['pack', '--pack-destination', packs], join(root, dir));
  }
  const tarballs = new Map<string, string>();
  for (const file of readdirSync(packs)) {
    const manifest = spawnSync('tar', ['-xzOf', join(packs, file), 'package/package.json'], { encoding: 'utf8' });
    tarballs.set(JSON.parse(manifest.stdout).name, join(packs, file));
  }
  return tarballs;
}

export interface Consumer {
  dir: string;
  /** Everything `npm install` printed (stdout and stderr), to check for warnings. */
  installLog: string;
}

/**
 * A project `name` under `work` whose dependencies are the tarballs of `packages`, zod and `extra` (npm specs
 * such as `@anthropic-ai/sdk@^1.12.0`), installed with `npm install --engine-strict`. typescript and
 * @types/node, needed only to typecheck `check.ts`, are devDependencies, so the footprint leaves them out.
 */
export function createConsumer(
  work: string,
  tarballs: Map<string, string>,
  options: { name: string; packages: string[]; extra?: string[] },
): Consumer {
  const dir = join(work, options.name);
  mkdirSync(dir);
  const dependencies: Record<string, string> = { zod: '^4' };
  for (const pkg of options.packages) {
    const tarball = tarballs.get(pkg);
    if (tarball === undefined) throw new Error(`no tarball for ${pkg}`);
    dependencies[pkg] = `file:${tarball}`;
  }
  for (const spec of options.extra ?? []) {
    const at = spec.lastIndexOf('@');
    dependencies[spec.slice(0, at)] = spec.slice(at + 1);
  }
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: options.name,
      private: true,
      type: 'module',
      dependencies,
      devDependencies: { typescript: typescriptVersion, '@types/node': nodeTypesVersion },
    }),
  );
  const result = spawnSync(process.execPath, [npmCli, 'install', '--engine-strict', '--no-audit', '--no-fund'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, npm_config_yes: 'true' },
  });
  const installLog = `${result.stdout}\n${result.stderr}`;
  if (result.status !== 0) throw new Error(`npm install failed in ${dir}:\n${installLog}`);
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
  return { dir, installLog };
}

export function typecheck(dir: string): void {
  sh(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], dir);
}

type LockEntries = Record<string, { dev?: boolean; link?: boolean }>;

/** The `node_modules/...` paths of the packages installed for the project's dependencies (not its devDependencies). */
export function installedPackages(dir: string): string[] {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: LockEntries };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.dev !== true && entry.link !== true)
    .map(([path]) => path);
}

/** Bytes on disk (file sizes) of those packages, each counted without the packages nested in it. */
export function installedBytes(dir: string): number {
  let total = 0;
  const walk = (path: string): void => {
    for (const entry of readdirSync(path)) {
      if (entry === 'node_modules') continue;
      const child = join(path, entry);
      const stat = lstatSync(child);
      if (stat.isDirectory()) walk(child);
      else total += stat.size;
    }
  };
  for (const path of installedPackages(dir)) walk(join(dir, path));
  return total;
}

/** Lines of an install log that are about install scripts (npm 11: `install-scripts`; pnpm: `Ignored build scripts`). */
export function installScriptWarnings(log: string): string[] {
  return log.split('\n').filter((line) => /install.?scripts|ignored build scripts|preinstall|postinstall/i.test(line));
}
