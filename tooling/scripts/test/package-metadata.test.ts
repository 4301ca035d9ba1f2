// Package metadata as published: the source maps of each packed tarball resolve to files inside that tarball
// (so a debugger or a stack-trace mapper on a consumer's machine finds the TypeScript source), and every
// package's `repository` is the root's (one place to change), and no build leaves a stale output behind.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishable } from '../publishable.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8'));

let work: string;
/** Package directory in the repository → the directory its tarball was extracted to. */
const extracted = new Map<string, string>();

function sh(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${result.stderr}`);
  return result.stdout;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'x-package-metadata-'));
  for (const dir of publishable) {
    expect(existsSync(join(root, dir, 'dist')), `${dir} is built`).toBe(true);
    const packs = join(work, dir.replace('/', '-'));
    mkdirSync(packs, { recursive: true });
    sh('pnpm', ['pack', '--pack-destination', packs], join(root, dir));
    const tarball = readdirSync(packs).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for ${dir}`);
    sh('tar', ['-xzf', tarball], packs);
    extracted.set(dir, join(packs, 'package'));
  }
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true, maxRetries: 5 });
});

describe.each(publishable)('%s, as packed', (dir) => {
  it('ships source maps whose every source is a file in the tarball', () => {
    const pkg = extracted.get(dir) as string;
    const files = filesUnder(pkg);
    const maps = files.filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const map of maps) {
      const parsed = readJson(map) as { sources?: string[]; sourceRoot?: string };
      const sources = parsed.sources ?? [];
      if (sources.length === 0) problems.push(`${relative(pkg, map)}: no sources`);
      for (const source of sources) {
        const target = resolve(dirname(map), parsed.sourceRoot ?? '', source);
        if (!target.startsWith(`${pkg}/`)) problems.push(`${relative(pkg, map)}: ${source} points outside the package`);
        else if (!existsSync(target)) problems.push(`${relative(pkg, map)}: ${source} is not in the tarball`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('points every sourceMappingURL of its JavaScript and declarations at a map in the tarball', () => {
    const pkg = extracted.get(dir) as string;
    const problems: string[] = [];
    let linked = 0;
    for (const file of filesUnder(pkg).filter((name) => /\.(js|d\.ts)$/.test(name))) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(file, 'utf8'))?.[1];
      if (url === undefined) continue;
      linked += 1;
      if (!existsSync(resolve(dirname(file), url))) problems.push(`${relative(pkg, file)}: ${url} is missing`);
    }
    expect(linked).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('ships no compiled output whose source is gone (a stale file left in dist by an earlier build)', () => {
    const pkg = extracted.get(dir) as string;
    const compiled = filesUnder(join(pkg, 'dist'))
      .map((file) => relative(join(pkg, 'dist'), file))
      // dist/chunks/ holds what the bundled entries share (tooling/scripts/bundle-dist.mjs): no source of its own.
      .filter((file) => !file.startsWith('viewer-assets/') && !file.startsWith('chunks/') && file.endsWith('.js'));
    expect(compiled.length).toBeGreaterThan(0);
    const orphans = compiled.filter((file) => {
      const stem = join(root, dir, 'src', file.replace(/\.js$/, ''));
      return !existsSync(`${stem}.ts`) && !existsSync(`${stem}.tsx`);
    });
    expect(orphans).toEqual([]);
  });

  it('empties dist before it compiles (its build script starts by removing dist)', () => {
    const build = (readJson(join(root, dir, 'package.json')).scripts as Record<string, string>).build as string;
    const clean = build.split(' && ')[0] as string;
    const scratch = mkdtempSync(join(work, 'clean-'));
    mkdirSync(join(scratch, 'dist', 'removed'), { recursive: true });
    writeFileSync(join(scratch, 'dist', 'removed', 'gone.js'), 'export {};\n');
    writeFileSync(join(scratch, 'keep.txt'), 'not in dist\n');
    const result = spawnSync(clean, { cwd: scratch, shell: true, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(existsSync(join(scratch, 'dist'))).toBe(false);
    expect(existsSync(join(scratch, 'keep.txt'))).toBe(true);
  });

  it("names the root's repository, with its own directory", () => {
    const rootRepository = readJson(join(root, 'package.json')).repository as { type: string; url: string };
    const manifest = readJson(join(extracted.get(dir) as string, 'package.json'));
    expect(manifest.repository).toEqual({ type: rootRepository.type, url: rootRepository.url, directory: dir });
  });
});

describe('release tooling', () => {
  it('lists every non-private workspace package as publishable, and builds each before these tests run', () => {
    const workspacePackages = ['packages', 'apps'].flatMap((parent) =>
      readdirSync(join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(root, parent, entry.name, 'package.json')))
        .map((entry) => `${parent}/${entry.name}`),
    );
    const published = workspacePackages.filter((dir) => readJson(join(root, dir, 'package.json')).private !== true);
    expect([...published].sort()).toEqual([...publishable].sort());
    const turbo = readJson(join(root, 'turbo.json')) as { tasks: Record<string, { dependsOn?: string[] }> };
    const waitsFor = turbo.tasks['@x/scripts#test']?.dependsOn ?? [];
    for (const dir of publishable) {
      expect(waitsFor).toContain(`${readJson(join(root, dir, 'package.json')).name as string}#build`);
    }
  });

  it('checks that every package names the root repository (sync-repository --check)', () => {
    const result = spawnSync(process.execPath, [join(root, 'tooling/scripts/sync-repository.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('has root scripts to add a changeset, version the packages and release', () => {
    const scripts = readJson(join(root, 'package.json')).scripts as Record<string, string>;
    expect(scripts.changeset).toBe('changeset');
    expect(scripts['version-packages']).toContain('changeset version');
    expect(scripts.release).toContain('sync-repository.mjs --check');
    expect(scripts.release).toContain('changeset publish');
    const config = readJson(join(root, '.changeset/config.json')) as { access: string; ignore: string[] };
    expect(config.access).toBe('public');
    for (const dir of publishable) {
      const name = readJson(join(root, dir, 'package.json')).name as string;
      expect(config.ignore).not.toContain(name);
    }
  });
});

/** The packages whose build bundles dist/ (tooling/scripts/bundle-dist.mjs). */
const bundled = publishable.filter((dir) =>
  ((readJson(join(root, dir, 'package.json')).scripts as Record<string, string>).build ?? '').includes(
    'bundle-dist.mjs',
  ),
);

describe.each(bundled)('%s, bundled', (dir) => {
  it('ships its JavaScript as ASCII (one other character makes Node decode and parse a whole file as two-byte)', () => {
    const pkg = extracted.get(dir) as string;
    const scripts = filesUnder(join(pkg, 'dist')).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const outside = scripts.filter((file) => /[\u0080-\uffff]/.test(readFileSync(file, 'utf8')));
    expect(outside.map((file) => relative(pkg, file))).toEqual([]);
  });
});
