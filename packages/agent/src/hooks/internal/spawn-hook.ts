import { spawn } from 'node:child_process';

export interface SpawnHookOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  timeoutMs: number;
  /** Start it and return at once; it is still killed at the timeout. */
  background?: boolean;
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
 * Runs a hook command with `/bin/sh -c` in its own process group, the hook input on stdin. A timeout kills
 * the whole group (so `sleep` children die too). Never rejects: failures come back as `failed`.
 */
export function spawnHook(options: SpawnHookOptions): Promise<SpawnHookResult> {
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('/bin/sh', ['-c', options.command], {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio: ['pipe', options.background ? 'ignore' : 'pipe', options.background ? 'ignore' : 'pipe'],
      });
    } catch (error) {
      resolve({ kind: 'failed', message: (error as Error).message });
      return;
    }
    const killGroup = (): void => {
      if (child.pid === undefined) return;
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
      const timer = setTimeout(killGroup, options.timeoutMs);
      timer.unref();
      child.on('error', () => clearTimeout(timer));
      child.on('exit', () => clearTimeout(timer));
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
      resolve({ kind: 'failed', message: error.message });
    });
    child.on('exit', (code, signal) => {
      // Killed by a signal: 128 + its number, as a shell reports it; -1 when unknown.
      exitCode = code ?? (signal === null ? -1 : 128 + (signalNumbers[signal] ?? 0));
      if (openStreams === 0) finish();
      else drainTimer = setTimeout(finish, DRAIN_GRACE_MS);
    });
  });
}

const signalNumbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGSEGV: 11, SIGTERM: 15 };
