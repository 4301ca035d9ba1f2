import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Written to stdin, which is then closed (default: stdin is /dev/null). */
  input?: string;
  timeoutMs?: number;
  /** The `node` binary that runs the bin (default: this process's, Node 20 on the project's machines). */
  node?: string;
}

/**
 * The environment of the child: this process's, minus everything that would change what `x` does
 * (API keys, X_*, color settings, Node's compile cache), so a developer's shell cannot leak into a test.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(OPENAI_|OTEL_|X_|NO_COLOR$|FORCE_COLOR$|SESSION_API_KEY$|NODE_(DISABLE_)?COMPILE_CACHE$)/.test(key))
      continue;
    env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  // Temporary workspaces (`run --demo`) go inside the test's own X_HOME, which the test removes.
  if (extra.X_HOME !== undefined && extra.TMPDIR === undefined) {
    env.TMPDIR = join(extra.X_HOME, 'tmp');
    mkdirSync(env.TMPDIR, { recursive: true });
  }
  // So does the compile cache of a Node that has one (22.1+), instead of the developer's ~/.cache/x.
  if (extra.X_HOME !== undefined && !('XDG_CACHE_HOME' in extra)) env.XDG_CACHE_HOME = join(extra.X_HOME, 'cache');
  return env;
}

/**
 * Where a command runs when the test names no directory: inside the test's own X_HOME (beside its conversation
 * store, never holding it: a sandboxed conversation refuses a workspace that holds its store), else the temp dir.
 */
function defaultCwd(extra: Record<string, string | undefined> = {}): string {
  if (extra.X_HOME === undefined) return tmpdir();
  const dir = join(extra.X_HOME, 'tmp');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Runs `node dist/bin.js …args` and collects its output and exit code. */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? defaultCwd(options.env),
      env: cleanEnv(options.env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`x ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60_000} ms\n${stdout}\n${stderr}`),
      );
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(prefix = 'x-cli-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true, maxRetries: 5 }) };
}

/** Whether the text holds an ANSI escape sequence (colors, cursor movement). */
export function hasEscapes(text: string): boolean {
  return text.includes(`${String.fromCharCode(27)}[`);
}

/** Whether the text holds an SGR color or style code (cursor movement does not count). */
export function hasColorCodes(text: string): boolean {
  return new RegExp(`${String.fromCharCode(27)}\\[\\d+(;\\d+)*m`).test(text);
}

/**
 * What the fixture MCP servers read outside a run's workspace, inside its sandbox: their scripts and the packages
 * they import (where pnpm keeps them). Given in the server's own config entry (`sandbox`), as a user would.
 */
export const fixtureReadablePaths: string[] = ['../fixtures', '../../node_modules', '../../../../node_modules'].map(
  (path) => realpathSync(fileURLToPath(new URL(path, import.meta.url))),
);
