// The compile cache of the `x` bin (issue 33), with real processes: Node 22 (installed by node-lines.mjs, as the
// consumer test and the peers bench do) fills x's per-user cache directory and reads it back on the next run; Node's
// own switches win; Node 20 has no cache for ES modules and must behave exactly as before, writing nothing.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode } from '../../../tooling/scripts/node-lines.mjs';
import { BIN, cleanEnv, runCli, tempDir } from './helpers/run-cli.js';

const execFileAsync = promisify(execFile);
let node22: string;
let node20: string;
const temp = tempDir('x-compile-cache-');
afterAll(() => temp.remove());

beforeAll(() => {
  node22 = ensureNode('22');
  node20 = process.versions.node.startsWith('20.') ? process.execPath : ensureNode('20');
}, 600_000);

let counter = 0;
/** A fresh home for one test: HOME, X_HOME and (unless `xdg: false`) XDG_CACHE_HOME inside it. */
function freshHome(options: { xdg?: boolean } = {}): {
  home: string;
  cache: string;
  env: Record<string, string | undefined>;
} {
  counter += 1;
  const home = join(temp.path, `home-${counter}`);
  mkdirSync(home);
  // XDG_CACHE_HOME: undefined removes it (cleanEnv would otherwise put it under X_HOME).
  const xdg = options.xdg === false ? undefined : join(home, 'xdg-cache');
  const env = { HOME: home, X_HOME: join(home, 'x'), XDG_CACHE_HOME: xdg };
  const cache = join(xdg ?? join(home, '.cache'), 'x', 'compile-cache');
  return { home, cache, env };
}

/** Every file under `dir` with its size and modification time, to tell whether a run rewrote the cache. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const stats = statSync(path);
    files.set(path, `${stats.size}:${stats.mtimeMs}`);
  }
  return files;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String);
}

describe('x on Node 22', () => {
  it('fills $XDG_CACHE_HOME/x/compile-cache (user-only) and reads it back, with the same output', async () => {
    const { cache, env } = freshHome();
    const first = await runCli(['list'], { node: node22, env });
    expect(first.code).toBe(0);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    const written = snapshot(cache);
    // The CLI's own modules, and the packages behind `list`: @x/store, @x/events, zod.
    expect(written.size).toBeGreaterThan(20);

    const second = await runCli(['list'], { node: node22, env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' } });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // Read back, not recompiled: Node accepted cached code and rewrote no file.
    expect(second.stderr).toMatch(/compile cache\].*accepted/);
    expect(snapshot(cache)).toEqual(written);
  });

  it('keeps the version output and exit code of x --version and of a usage error', async () => {
    const { env } = freshHome();
    for (let run = 0; run < 2; run += 1) {
      const version = await runCli(['--version'], { node: node22, env });
      expect(version.code).toBe(0);
      expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
      const usage = await runCli(['no-such-command'], { node: node22, env });
      expect(usage.code).toBe(2);
      expect(usage.stdout).toBe('');
    }
  });

  it('uses ~/.cache/x/compile-cache without XDG_CACHE_HOME, and ignores a relative one', async () => {
    const { home, cache, env } = freshHome({ xdg: false });
    expect((await runCli(['--version'], { node: node22, env, cwd: home })).code).toBe(0);
    expect(snapshot(cache).size).toBeGreaterThan(0);
    const relative = await runCli(['--version'], { node: node22, env: { ...env, XDG_CACHE_HOME: 'rel' }, cwd: home });
    expect(relative.code).toBe(0);
    expect(existsSync(join(home, 'rel'))).toBe(false);
  });

  it('writes nothing with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const { home, env } = freshHome({ xdg: false });
    const result = await runCli(['list'], { node: node22, env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(result.code).toBe(0);
    expect(existsSync(join(home, '.cache'))).toBe(false);
  });

  it("uses the user's NODE_COMPILE_CACHE instead of its own directory", async () => {
    const { home, cache, env } = freshHome();
    const mine = join(home, 'mine');
    const result = await runCli(['--version'], { node: node22, env: { ...env, NODE_COMPILE_CACHE: mine } });
    expect(result.code).toBe(0);
    expect(snapshot(mine).size).toBeGreaterThan(0);
    expect(existsSync(cache)).toBe(false);

    // One Node cannot use is still the user's choice: x does not fall back to its own directory.
    writeFileSync(join(home, 'file'), '');
    const unusable = { ...env, NODE_COMPILE_CACHE: join(home, 'file', 'cache') };
    const verbose = await runCli(['--verbose', '--version'], { node: node22, env: unusable });
    expect([verbose.code, verbose.stdout]).toEqual([0, result.stdout]);
    expect(verbose.stderr).toContain('x: compile cache not used: Node could not use NODE_COMPILE_CACHE=');
    expect(existsSync(cache)).toBe(false);
  });

  it('runs as before when the directory cannot be made or trusted, with one line under --verbose', async () => {
    const { home, cache, env } = freshHome();
    const expected = await runCli(['list'], { node: node22, env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });

    writeFileSync(join(home, 'file'), '');
    const blocked = { ...env, XDG_CACHE_HOME: join(home, 'file') };
    const quiet = await runCli(['list'], { node: node22, env: blocked });
    expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([expected.code, expected.stdout, expected.stderr]);
    const verbose = await runCli(['--verbose', 'list'], { node: node22, env: blocked });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout).toBe(expected.stdout);
    expect(verbose.stderr).toMatch(/^x: compile cache not used: cannot create .*file\/x\/compile-cache/);

    // A directory others can write to could hand `x` foreign code: left alone.
    mkdirSync(cache, { recursive: true });
    chmodSync(cache, 0o777);
    const open = await runCli(['--verbose', 'list'], { node: node22, env });
    expect(open.stdout).toBe(expected.stdout);
    expect(open.stderr).toContain('compile cache not used');
    expect(open.stderr).toContain('writable by other users');
    expect(allFiles(cache)).toEqual([]);
  });

  it('runs as before when the cache is read-only (a read-only bind mount, by bubblewrap)', async () => {
    const { home, env } = freshHome();
    const expected = await runCli(['list'], { node: node22, env });
    const cacheRoot = join(home, 'xdg-cache');
    for (const filled of [true, false]) {
      if (!filled) rmSync(join(cacheRoot, 'x'), { recursive: true });
      mkdirSync(join(cacheRoot, 'x', 'compile-cache'), { recursive: true, mode: 0o700 });
      const before = snapshot(cacheRoot);
      const { stdout, stderr } = await execFileAsync(
        'bwrap',
        ['--bind', '/', '/', '--dev', '/dev', '--ro-bind', cacheRoot, cacheRoot, node22, BIN, 'list'],
        { env: cleanEnv(env) },
      );
      expect([stdout, stderr]).toEqual([expected.stdout, expected.stderr]);
      expect(snapshot(cacheRoot)).toEqual(before);
    }
  });

  it('leaves the environment of child processes as it was', async () => {
    const { env } = freshHome();
    const script = [
      `const { enableCliCompileCache } = await import(${JSON.stringify(new URL('../dist/compile-cache.js', import.meta.url).href)});`,
      "const { execFileSync } = await import('node:child_process');",
      'const result = enableCliCompileCache();',
      'const child = execFileSync(process.execPath, ["-p", "require(\\"node:module\\").getCompileCacheDir() ?? \\"none\\""]);',
      'console.log(result.status, process.env.NODE_COMPILE_CACHE ?? "unset", String(child).trim());',
    ].join('\n');
    const { stdout } = await execFileAsync(node22, ['--input-type=module', '-e', script], { env: cleanEnv(env) });
    expect(stdout.trim()).toBe('enabled unset none');
  });
});

describe('x on Node 20', () => {
  it('runs unchanged and writes no cache', async () => {
    const { home, env } = freshHome({ xdg: false });
    const result = await runCli(['list'], { node: node20, env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('No conversations');
    expect(existsSync(join(home, '.cache'))).toBe(false);
    const version = await runCli(['--version'], { node: node20, env });
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
