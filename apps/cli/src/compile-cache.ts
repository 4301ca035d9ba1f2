// Node's on-disk compile cache for the `x` command (issue 33): Node 22.1+ can keep V8's compiled code of the
// modules it loads, so a later `x` skips compiling @x/agent, @x/store, @x/events and zod again. It is the
// application's choice (libraries never turn it on for their users), so only the bin's entry calls this, before
// it imports anything heavy. This file imports Node built-ins only: whatever it imported would be compiled cold.
import { mkdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * What became of the cache: `enabled` in x's directory, `already-enabled` by the user's `NODE_COMPILE_CACHE`,
 * `disabled` by `NODE_DISABLE_COMPILE_CACHE`, `unsupported` on Node 20 (no API for ES modules), `failed` when the
 * directory could not be created or trusted.
 */
export type CompileCacheStatus = 'enabled' | 'already-enabled' | 'disabled' | 'unsupported' | 'failed';

export interface CompileCacheResult {
  status: CompileCacheStatus;
  /** The directory in use (`enabled`, `already-enabled`). */
  directory?: string;
  /** Why the cache is off (`disabled`, `failed`). */
  message?: string;
}

/** The part of `node:module` this needs (getCompileCacheDir: Node 22.8+); @types/node 20 does not declare it. */
interface CompileCacheApi {
  enableCompileCache?: (directory: string) => { status: number; message?: string; directory?: string };
  getCompileCacheDir?: () => string | undefined;
  constants?: { compileCacheStatus?: Record<'FAILED' | 'ENABLED' | 'ALREADY_ENABLED' | 'DISABLED', number> };
}

/**
 * Where `x` keeps the cache: `$XDG_CACHE_HOME/x/compile-cache`, else `~/.cache/x/compile-cache`. Per user (not
 * Node's default under the shared temporary directory), outside $X_HOME (which holds conversations and is often
 * set per project) and never relative to the working directory: a relative `XDG_CACHE_HOME` is ignored, as the XDG
 * spec says. Undefined when there is no absolute home directory to put it in.
 */
export function compileCacheDirectory(
  env: Readonly<Record<string, string | undefined>> = process.env,
  home: string = safeHomedir(),
): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'x', 'compile-cache');
  if (home === '' || !isAbsolute(home)) return undefined;
  return join(home, '.cache', 'x', 'compile-cache');
}

function safeHomedir(): string {
  try {
    return homedir();
  } catch {
    return '';
  }
}

/**
 * Creates the directory readable by its user only and checks that it is one this user may trust: a directory
 * owned by this user that nobody else can write to (a code cache is code: whoever can write it can run code in
 * `x`). Returns why not, or undefined when it is fine.
 */
function prepareDirectory(directory: string, uid: number | undefined): string | undefined {
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const stats = statSync(directory);
    if (!stats.isDirectory()) return `${directory} is not a directory`;
    if (uid !== undefined && stats.uid !== uid) return `${directory} belongs to another user (uid ${stats.uid})`;
    if (uid !== undefined && (stats.mode & 0o022) !== 0) return `${directory} is writable by other users`;
    return undefined;
  } catch (error) {
    return `cannot create ${directory}: ${(error as Error).message}`;
  }
}

/**
 * Turns on Node's compile cache for this process when Node has it (22.1+), in `compileCacheDirectory()`. Node's
 * own variables win: `NODE_COMPILE_CACHE=<dir>` (Node enabled it there at start-up) and
 * `NODE_DISABLE_COMPILE_CACHE` (off, whatever its value, as Node reads it). Never throws: a cache that cannot be
 * used only makes `x` compile as before. Child processes get nothing from this (the environment is left as it was).
 */
export function enableCliCompileCache(
  env: Readonly<Record<string, string | undefined>> = process.env,
  api: CompileCacheApi = module as CompileCacheApi,
  /** The user the directory must belong to (undefined where there are no user ids: Windows). */
  uid: number | undefined = process.getuid?.(),
): CompileCacheResult {
  const enable = api.enableCompileCache;
  if (typeof enable !== 'function') return { status: 'unsupported' };
  if (env.NODE_DISABLE_COMPILE_CACHE !== undefined) {
    return { status: 'disabled', message: 'Disabled by NODE_DISABLE_COMPILE_CACHE' };
  }
  const userDirectory = env.NODE_COMPILE_CACHE;
  if (userDirectory !== undefined && userDirectory !== '') {
    // Node enabled it there at start-up, or could not: either way the user chose, and x's directory stays out.
    if (typeof api.getCompileCacheDir !== 'function') return { status: 'already-enabled', directory: userDirectory };
    const inUse = api.getCompileCacheDir();
    return inUse === undefined
      ? { status: 'failed', message: `Node could not use NODE_COMPILE_CACHE=${userDirectory}` }
      : { status: 'already-enabled', directory: inUse };
  }
  const directory = compileCacheDirectory(env);
  if (directory === undefined) return { status: 'failed', message: 'no home directory to keep the cache in' };
  const problem = prepareDirectory(directory, uid);
  if (problem !== undefined) return { status: 'failed', message: problem };
  const before = process.env.NODE_COMPILE_CACHE;
  try {
    const result = enable(directory);
    const codes = api.constants?.compileCacheStatus;
    if (result.status === codes?.ENABLED) return { status: 'enabled', directory: result.directory ?? directory };
    return { status: 'failed', message: result.message ?? `status ${result.status}` };
  } catch (error) {
    return { status: 'failed', message: (error as Error).message };
  } finally {
    // Node 22 and 24 do not export the directory to children; should a later Node do so, the processes x starts
    // (MCP servers, hooks, the agent's commands, whatever they inherit) must still not write into x's cache.
    if (process.env.NODE_COMPILE_CACHE !== before) {
      if (before === undefined) delete process.env.NODE_COMPILE_CACHE;
      else process.env.NODE_COMPILE_CACHE = before;
    }
  }
}
