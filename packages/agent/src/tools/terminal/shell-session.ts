import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:os';
import { killProcessTree, whenSpawned } from '../../processes/index.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { HeadTailBuffer } from '../internal/output-buffer.js';

/** What the shell reports after each command: the reference's PS1 metadata. */
export interface CommandReport {
  exitCode: number;
  /** `$!`, the last background job's pid; -1 when none was started. */
  pid: number;
  workingDir: string;
  pythonPath: string;
}

/** Output collected since the last `takeOutput`, bounded to `keepChars` at each end. */
export interface CollectedOutput {
  head: string;
  tail: string;
  dropped: number;
}

export type WaitOutcome = 'completed' | 'hard_timeout' | 'no_change_timeout' | 'aborted' | 'exited';

export interface ShellSessionOptions {
  shell: string;
  cwd: string;
  env: Record<string, string>;
  keepChars: number;
  /** Where the shell runs: it is started once inside it, and everything it starts stays inside. */
  sandbox: Sandbox;
}

/** `$'…'` quoting: any byte sequence survives, newlines included. */
export function ansiCQuote(value: string): string {
  return `$'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
}

const livePids = new Set<number>();
let exitHookInstalled = false;

/** Shells run in their own process group; a Node process that exits must not leave them behind. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pid of livePids) killProcessTree(pid);
  });
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * One long-lived bash process: commands run in it one after another, so `cd`, `export`, functions and aliases
 * persist, as in the reference's terminal. The shell reads its commands from a pipe (no TTY); each command is
 * sent as one line, `eval <quoted command>; report`, so whatever the command reads from stdin comes after it
 * (`is_input`). After each command the shell prints a report framed by a random per-session marker, which
 * output cannot forge.
 */
export class ShellSession {
  readonly #options: ShellSessionOptions;
  readonly #nonce = randomBytes(12).toString('hex');
  #child: ChildProcessWithoutNullStreams | undefined;
  #pending = '';
  #output: HeadTailBuffer;
  #report: CommandReport | undefined;
  #exitCode: number | undefined;
  #listeners = new Set<() => void>();
  #running = false;

  constructor(options: ShellSessionOptions) {
    this.#options = options;
    this.#output = new HeadTailBuffer(options.keepChars);
  }

  get alive(): boolean {
    return this.#child !== undefined && this.#exitCode === undefined;
  }

  /** A command was sent and its report has not been taken yet. */
  get running(): boolean {
    return this.#running;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts bash and waits for its first report (so the session is ready and its directory known). */
  async start(): Promise<CommandReport> {
    const { shell, cwd, env, sandbox } = this.#options;
    const child = (await sandbox.spawn({
      command: shell,
      args: ['--norc', '--noprofile'],
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })) as ChildProcessWithoutNullStreams;
    this.#child = child;
    await whenSpawned(child);
    if (child.pid !== undefined) livePids.add(child.pid);
    installExitHook();
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.#onData(chunk));
    // Only bash's own complaints before `exec 2>&1` arrive here.
    child.stderr.on('data', (chunk: string) => this.#onData(chunk));
    child.stdin.on('error', () => undefined);
    child.on('exit', (code, signal) => {
      // Whatever the shell left running (`server &`) goes with it, as when a terminal closes.
      if (child.pid !== undefined) {
        livePids.delete(child.pid);
        killGroup(child.pid, 'SIGKILL');
      }
      this.#exitCode = code ?? 128 + (signal === null ? 0 : constants.signals[signal]);
      this.#notify();
    });
    const nonce = this.#nonce;
    // A SIGINT handler (not an ignored SIGINT, which children would inherit) keeps the shell alive when C-c
    // interrupts the command it runs.
    const init = [
      'exec 2>&1',
      "trap ':' INT",
      `__x_report() { local ec=$?; printf '\\n${nonce}<%s\\t%s\\t%s\\t%s>${nonce}\\n' "$ec" "$!" "$(command -v python 2>/dev/null)" "$PWD"; }`,
      '__x_report',
      '',
    ].join('\n');
    this.#running = true;
    child.stdin.write(init);
    const outcome = await this.wait({});
    if (outcome !== 'completed') {
      throw new Error(`the shell exited during start-up with code ${this.#exitCode ?? 'unknown'}`);
    }
    this.takeOutput();
    return this.takeReport()!;
  }

  /** Sends a command; its output and report are collected until `takeReport`. */
  send(command: string): void {
    this.#running = true;
    this.#report = undefined;
    this.#child?.stdin.write(`eval ${ansiCQuote(command)}; __x_report\n`);
  }

  /** Writes raw input to the running command's stdin. */
  write(input: string): void {
    this.#child?.stdin.write(input);
  }

  /** Sends a signal to the command (the whole process group; the shell survives SIGINT). */
  signal(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid;
    // Through the sandbox: inside bubblewrap the shell is not in the group of the process we started.
    if (pid !== undefined) this.#options.sandbox.signal(pid, signal);
  }

  /**
   * Waits until the command reports, the shell exits, `signal` aborts, `timeoutMs` passes since the call, or no
   * output arrives for `noChangeMs`.
   */
  wait(options: { timeoutMs?: number; noChangeMs?: number; signal?: AbortSignal }): Promise<WaitOutcome> {
    return new Promise((resolve) => {
      const timers: NodeJS.Timeout[] = [];
      let noChangeTimer: NodeJS.Timeout | undefined;
      const finish = (outcome: WaitOutcome) => {
        for (const timer of timers) clearTimeout(timer);
        clearTimeout(noChangeTimer);
        this.#listeners.delete(check);
        options.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const armNoChange = () => {
        if (options.noChangeMs === undefined) return;
        clearTimeout(noChangeTimer);
        noChangeTimer = setTimeout(() => finish('no_change_timeout'), options.noChangeMs);
      };
      let seen = this.#output.total;
      const check = () => {
        if (this.#report !== undefined) return finish('completed');
        if (this.#exitCode !== undefined) return finish('exited');
        if (this.#output.total !== seen) {
          seen = this.#output.total;
          armNoChange();
        }
      };
      const onAbort = () => finish('aborted');
      if (options.signal?.aborted) return finish('aborted');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs !== undefined) timers.push(setTimeout(() => finish('hard_timeout'), options.timeoutMs));
      armNoChange();
      this.#listeners.add(check);
      check();
    });
  }

  /** The output collected since the last call (the report's marker never appears in it). */
  takeOutput(): CollectedOutput {
    const snapshot = this.#output.snapshot();
    this.#output = new HeadTailBuffer(this.#options.keepChars);
    return snapshot;
  }

  /** The report of the finished command, once; the session is then ready for the next one. */
  takeReport(): CommandReport | undefined {
    const report = this.#report;
    if (report !== undefined) {
      this.#report = undefined;
      this.#running = false;
    }
    return report;
  }

  /** The shell's exit code once it has exited. */
  get exitCode(): number | undefined {
    return this.#exitCode;
  }

  /** Kills the shell and everything it started (its process group and its descendants). */
  close(): void {
    const pid = this.#child?.pid;
    // After the shell exited, its exit handler already killed the group (and the id may be reused since).
    if (pid !== undefined && this.#exitCode === undefined) killProcessTree(pid);
    this.#child?.stdin.destroy();
    this.#child?.stdout.destroy();
    this.#child?.stderr.destroy();
  }

  #onData(chunk: string): void {
    this.#pending += chunk;
    const start = `\n${this.#nonce}<`;
    const end = `>${this.#nonce}\n`;
    for (;;) {
      const at = this.#pending.indexOf(start);
      if (at === -1) {
        // Hold back only what may be the beginning of a marker (a last line that is a prefix of it).
        const lastLine = this.#pending.lastIndexOf('\n');
        const keepFrom =
          lastLine !== -1 && start.startsWith(this.#pending.slice(lastLine)) ? lastLine : this.#pending.length;
        this.#output.push(this.#pending.slice(0, keepFrom));
        this.#pending = this.#pending.slice(keepFrom);
        break;
      }
      const close = this.#pending.indexOf(end, at + start.length);
      this.#output.push(this.#pending.slice(0, at));
      if (close === -1) {
        this.#pending = this.#pending.slice(at);
        break;
      }
      const [exitCode = '', pid = '', pythonPath = '', ...dir] = this.#pending
        .slice(at + start.length, close)
        .split('\t');
      this.#report = {
        exitCode: Number.parseInt(exitCode, 10),
        pid: pid === '' ? -1 : Number.parseInt(pid, 10),
        pythonPath,
        workingDir: dir.join('\t'),
      };
      this.#pending = this.#pending.slice(close + end.length);
    }
    this.#notify();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
