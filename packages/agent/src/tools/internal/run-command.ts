import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { HeadTailBuffer } from './output-buffer.js';

export interface RunCommandOptions {
  command: string;
  shell: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Characters kept from each end of the output. */
  keepChars: number;
  signal?: AbortSignal;
}

export interface RunCommandResult {
  head: string;
  tail: string;
  dropped: number;
  /** null when the command was killed for a timeout or an abort. */
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
}

/**
 * After the shell exits, wait this long for its output pipes to drain. A background job (`server &`) keeps them
 * open for as long as it runs; we stop reading then rather than wait for it.
 */
const drainGraceMs = 200;

/**
 * Runs `command` with `shell -c` in its own process group, stdout and stderr on one pipe (so they interleave as
 * written), stdin empty. A timeout or an abort kills the whole group, so children of the command die too.
 */
export function runCommand(options: RunCommandOptions): Promise<RunCommandResult> {
  return new Promise((resolve, reject) => {
    const output = new HeadTailBuffer(options.keepChars);
    // `exec 2>&1` makes stderr the same pipe as stdout inside the shell: exact interleaving, one stream to read.
    const child = spawn(options.shell, ['-c', `exec 2>&1\n${options.command}`], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let settled = false;
    let exited = false;
    let outputClosed = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      resolve({ ...output.snapshot(), exitCode, timedOut, aborted });
    };
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);

    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => output.push(chunk));
    child.stdout?.on('close', () => {
      outputClosed = true;
      if (exited) finish();
    });
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      exited = true;
      // A shell killed by a signal reports 128 + its number, as bash's `$?` does.
      if (!timedOut && !aborted) exitCode = code ?? 128 + (signal === null ? 0 : constants.signals[signal]);
      if (outputClosed) finish();
      else drainTimer = setTimeout(finish, drainGraceMs);
    });
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
