import { type ChildProcess, spawn } from 'node:child_process';
import { BIN, cleanEnv } from './run-cli.js';

/** A long-running `x` process (serve, tail) whose output can be awaited. */
export interface Background {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves once stdout (or, with `stream`, stderr) matches, with the match; rejects after the timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number, stream?: 'stdout' | 'stderr'): Promise<RegExpMatchArray>;
  /** Sends SIGINT and resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

export function startBackground(args: string[], env: Record<string, string>): Background {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    async waitFor(pattern, timeoutMs = 60_000, stream = 'stdout') {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = (stream === 'stdout' ? stdout : stderr).match(pattern);
        if (match !== null) return match;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`x ${args.join(' ')}: no ${pattern} in output\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async interrupt() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}
