import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Child {
  readonly child: ChildProcess;
  /** Every stdout line so far. */
  readonly lines: string[];
  /** Resolves with the first line (already printed or still to come) matching `pattern`. */
  line(pattern: RegExp): Promise<string>;
  send(line: string): void;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Runs `test/children/<name>.ts` in its own Node process through tsx. */
export function startChild(name: string, args: string[]): Child {
  const path = fileURLToPath(new URL(`../children/${name}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  return {
    child,
    lines,
    line(pattern) {
      const found = lines.find((line) => pattern.test(line));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve });
        void exited.then((result) =>
          reject(
            new Error(`child ${name} exited (${result.code ?? result.signal}) before ${pattern}: ${result.stderr}`),
          ),
        );
      });
    },
    send(line) {
      child.stdin?.write(`${line}\n`);
    },
    exited,
  };
}
