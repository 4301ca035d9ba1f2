import { constants } from 'node:os';
import type { Sandbox, SandboxCommand } from './sandbox.js';
import { resolveSandboxLimits } from './sandbox-limits.js';
import type { SandboxLimitKind, SandboxRunResult } from './sandbox-run-result.js';

export interface RunSandboxedOptions extends SandboxCommand {
  /** Written to the command's stdin, which is then closed; without it stdin is empty. */
  stdin?: string;
  /** Overrides the policy's `limits.wallTimeMs` for this run. */
  wallTimeMs?: number;
  /** Overrides the policy's `limits.outputBytes` for this run. */
  outputBytes?: number;
  /** Aborting kills the command (and everything it started); the result then has no `limit`. */
  signal?: AbortSignal;
}

const EXIT_BY_SIGNAL: Partial<Record<number, SandboxLimitKind>> = {
  [128 + constants.signals.SIGXFSZ]: 'file_size',
  [128 + constants.signals.SIGXCPU]: 'cpu_time',
};

/**
 * Runs one command to its end in the sandbox (hooks, the server's shell route): its output collected up to
 * the output limit, the whole sandbox killed at the wall time. Resolves when every process of the command is
 * gone, which the sandbox guarantees once the command exits (its PID namespace dies with it). Never rejects
 * for what the command did; rejects for a command the sandbox refuses (`SandboxCommandError`).
 */
export async function runSandboxed(sandbox: Sandbox, options: RunSandboxedOptions): Promise<SandboxRunResult> {
  // Loaded on first use, not at import: node:child_process (and net, dgram and more behind it) is ~3 ms of a cold import of the package, and most processes that import it never start one.
  const { spawn } = await import('node:child_process');
  const prepared = await sandbox.prepare(options);
  const limits = resolveSandboxLimits(sandbox.policy.limits);
  const wallTimeMs = options.wallTimeMs ?? limits.wallTimeMs;
  const outputBytes = options.outputBytes ?? limits.outputBytes;
  try {
    const child = spawn(prepared.command, prepared.args, {
      cwd: prepared.cwd,
      env: prepared.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let killedFor: SandboxLimitKind | 'abort' | undefined;
    const kill = (reason: SandboxLimitKind | 'abort'): void => {
      // Both ways: the group (the outer bubblewrap, whose death ends the namespace) and, once, the cgroups, so that
      // the sandbox's end never rests on the parent-death signal alone.
      if (killedFor === undefined) void prepared.kill?.();
      killedFor ??= reason;
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      if (outputBytes === undefined) {
        into.push(chunk);
        return;
      }
      const room = outputBytes - kept;
      if (chunk.length > room) {
        if (room > 0) into.push(chunk.subarray(0, room));
        kept = outputBytes;
        truncated = true;
        kill('output');
        return;
      }
      kept += chunk.length;
      into.push(chunk);
    };
    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
    const timer = wallTimeMs === undefined ? undefined : setTimeout(() => kill('wall_time'), wallTimeMs);
    const onAbort = (): void => kill('abort');
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>((resolve) => {
      child.once('error', resolve);
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    if (ended instanceof Error) {
      return {
        exitCode: null,
        signal: null,
        stdout: '',
        stderr: `The sandbox could not start: ${ended.message}`,
        truncated: false,
      };
    }
    const hit = (await prepared.limitsHit?.()) ?? { processes: false, memory: false };
    let limit: SandboxLimitKind | undefined;
    if (killedFor === 'output') limit = 'output';
    else if (hit.processes) limit = 'processes';
    else if (hit.memory) limit = 'memory';
    else if (killedFor === 'wall_time') limit = 'wall_time';
    else if (killedFor === undefined && ended.code !== null) limit = EXIT_BY_SIGNAL[ended.code];
    return {
      exitCode: ended.code,
      signal: ended.signal,
      stdout: Buffer.concat(stdout).toString('utf8'),
      stderr: Buffer.concat(stderr).toString('utf8'),
      truncated,
      ...(limit === undefined ? {} : { limit }),
    };
  } finally {
    await prepared.release();
  }
}
