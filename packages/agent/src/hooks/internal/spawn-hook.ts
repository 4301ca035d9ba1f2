import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { killProcessTree, whenSpawned } from '../../processes/index.js';
import type { Sandbox } from '../../sandbox/sandbox.js';

export interface SpawnHookOptions {
  /** Where the hook runs. */
  sandbox: Sandbox;
  command: string;
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  timeoutMs: number;
  /** Start it and return at once; it is still killed at the timeout. */
  background?: boolean;
  /** Called once the hook has exited or was killed (for a background hook, after `started` was returned). */
  onSettled?: () => void;
}

export type SpawnHookResult =
  | { kind: 'exited'; exitCode: number; stdout: string; stderr: string }
  | { kind: 'timed_out'; stdout: string; stderr: string }
  | { kind: 'failed'; message: string }
  | { kind: 'started' };

/** Output kept per stream while reading (the event keeps less); a hook printing more is cut here. */
const MAX_CAPTURE_CHARS = 1_000_000;
/** After the shell exits, wait this long for pipes held open by its background children. */
const DRAIN_GRACE_MS = 200;

/**
 * Runs a hook command with `/bin/sh -c` in the sandbox, the hook input on stdin. A timeout kills the whole
 * tree the hook started (so `sleep` children, and those that left its process group, die too). Never rejects:
 * failures come back as `failed`.
 */
export async function spawnHook(given: SpawnHookOptions): Promise<SpawnHookResult> {
  let settled = false;
  const options: SpawnHookOptions = {
    ...given,
    onSettled: () => {
      if (settled) return;
      settled = true;
      given.onSettled?.();
    },
  };
  let child: ChildProcess;
  try {
    child = await options.sandbox.spawn({
      command: '/bin/sh',
      args: ['-c', options.command],
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', options.background ? 'ignore' : 'pipe', options.background ? 'ignore' : 'pipe'],
    });
    await whenSpawned(child);
  } catch (error) {
    options.onSettled?.();
    return { kind: 'failed', message: (error as Error).message };
  }
  return watchHook(child, options);
}

function watchHook(child: ChildProcess, options: SpawnHookOptions): Promise<SpawnHookResult> {
  return new Promise((resolve) => {
    let exited = false;
    child.once('exit', () => {
      exited = true;
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      // Before it exited the pid is ours: the whole tree goes. After, only its group can be left (the pid
      // may be reused), and the group id is not reused while the group lives.
      if (!exited) {
        killProcessTree(child.pid);
        return;
      }
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    // A hook that does not read its stdin closes the pipe early: not an error.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.stdin);

    if (options.background) {
      const settle = (): void => {
        clearTimeout(timer);
        options.onSettled?.();
      };
      const timer = setTimeout(() => {
        killGroup();
        options.onSettled?.();
      }, options.timeoutMs);
      timer.unref();
      child.once('error', settle);
      child.once('exit', settle);
      child.unref();
      resolve({ kind: 'started' });
      return;
    }

    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    let exitCode: number | undefined;
    let openStreams = 2;
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      child.stdout?.destroy();
      child.stderr?.destroy();
      options.onSettled?.();
      if (timedOut) resolve({ kind: 'timed_out', stdout, stderr });
      else resolve({ kind: 'exited', exitCode: exitCode ?? -1, stdout, stderr });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onClose = (): void => {
      openStreams -= 1;
      if (openStreams === 0 && exitCode !== undefined) finish();
    };
    child.stdout?.setEncoding('utf8');
    child.stderr?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (stdout.length < MAX_CAPTURE_CHARS) stdout += chunk.slice(0, MAX_CAPTURE_CHARS - stdout.length);
    });
    child.stderr?.on('data', (chunk: string) => {
      if (stderr.length < MAX_CAPTURE_CHARS) stderr += chunk.slice(0, MAX_CAPTURE_CHARS - stderr.length);
    });
    child.stdout?.on('close', onClose);
    child.stderr?.on('close', onClose);
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.onSettled?.();
      resolve({ kind: 'failed', message: error.message });
    });
    child.on('exit', (code, signal) => {
      // Killed by a signal: 128 + its number, as a shell reports it; -1 when unknown.
      exitCode = code ?? (signal === null ? -1 : 128 + constants.signals[signal]);
      if (openStreams === 0) finish();
      else drainTimer = setTimeout(finish, DRAIN_GRACE_MS);
    });
  });
}
