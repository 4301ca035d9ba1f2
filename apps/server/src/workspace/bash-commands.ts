import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { buildToolEnvironment, isPathInside, killProcessTree, type Sandbox } from '@x/agent';
import type { ServerSandboxing } from '../sandboxing/server-sandboxing.js';

/** Reference `BashCommand` (an ExecuteBashRequest with an id and timestamp). */
export type BashCommandEvent = {
  kind: 'BashCommand';
  id: string;
  timestamp: string;
  command: string;
  cwd: string | null;
  timeout: number;
};

/** Reference `BashOutput`: one piece of a command's output; `exit_code` set on the last one. */
export type BashOutputEvent = {
  kind: 'BashOutput';
  id: string;
  timestamp: string;
  command_id: string;
  order: number;
  exit_code: number | null;
  stdout: string | null;
  stderr: string | null;
};

export type BashEvent = BashCommandEvent | BashOutputEvent;

export interface BashSearch {
  kind__eq?: 'BashCommand' | 'BashOutput' | undefined;
  command_id__eq?: string | undefined;
  /** Naive UTC bounds in the events' timestamp format (`naiveUtcTimestamp`): compared as strings. */
  timestamp__gte?: string | undefined;
  timestamp__lt?: string | undefined;
  order__gt?: number | undefined;
  sort_order: 'TIMESTAMP' | 'TIMESTAMP_DESC';
  page_id?: string | undefined;
  limit: number;
}

/** Most events kept in memory; the oldest commands' events go first. */
const MAX_EVENTS = 10_000;
/** Output characters kept per command (stdout and stderr together); the rest is dropped and counted. */
export const MAX_KEPT_OUTPUT_CHARS = 1_000_000;

/** What a finished command printed (at most `MAX_KEPT_OUTPUT_CHARS`, then a note of what was dropped). */
export interface BashCommandResult {
  exit_code: number;
  stdout: string;
  stderr: string;
}

function timestamp(): string {
  // The reference's naive isoformat (microseconds, no offset).
  return new Date().toISOString().replace('Z', '000');
}

/**
 * The reference's bash service (`/api/bash/...`): each command runs in `bash -c` with the tools' minimal
 * environment (no host credentials), in a confined working directory, inside a sandbox of the default policy
 * (no network; the root holding the directory is its writable workspace, the server's data directory is not
 * visible); its output is recorded as BashOutput events (in memory) that clients poll with `order__gt`. A
 * command past its timeout is killed (exit code -1 with a note on stderr, as the reference's client reports a
 * timeout). Shutdown ends the sandboxes, and everything started in them (daemons included).
 */
export class BashCommands {
  readonly #sandboxing: ServerSandboxing;
  /** One sandbox per workspace root commands ran in, opened on first use. */
  readonly #sandboxes = new Map<string, Promise<Sandbox>>();
  #events: BashEvent[] = [];
  /**
   * Commands whose output is not closed yet, by the pid of their shell (the leader of its own process group), and
   * whether that shell has exited (background jobs may still hold the output open).
   */
  readonly #live = new Map<number, { exited: boolean }>();
  #closed = false;

  constructor(sandboxing: ServerSandboxing) {
    this.#sandboxing = sandboxing;
  }

  /**
   * The sandbox of the innermost root holding `cwd` (the roots the route confined it to). A directory named like
   * `..cache` lies inside its root (`isPathInside`), so the command still gets the whole root as its workspace.
   */
  #sandboxFor(cwd: string, roots: readonly string[]): Promise<Sandbox> {
    const root =
      roots.filter((candidate) => isPathInside(candidate, cwd)).sort((a, b) => b.length - a.length)[0] ?? cwd;
    let sandbox = this.#sandboxes.get(root);
    if (sandbox === undefined) {
      sandbox = this.#sandboxing.open({ policy: this.#sandboxing.policyFor(undefined), workspace: root });
      this.#sandboxes.set(root, sandbox);
      sandbox.catch(() => this.#sandboxes.delete(root));
    }
    return sandbox;
  }

  /**
   * Starts a command. Throws `SandboxRequiredError` when the server has no sandbox and was not started
   * `--unsandboxed`.
   */
  start(request: { command: string; cwd: string; timeout: number; roots: readonly string[] }): {
    command: BashCommandEvent;
    done: Promise<BashCommandResult>;
  } {
    this.#sandboxing.assertCanRun();
    const command: BashCommandEvent = {
      kind: 'BashCommand',
      id: randomUUID(),
      timestamp: timestamp(),
      command: request.command,
      cwd: request.cwd,
      timeout: request.timeout,
    };
    this.#record(command);
    let order = 0;
    const kept = { stdout: '', stderr: '', dropped: 0 };
    const keep = (stream: 'stdout' | 'stderr', text: string): string | undefined => {
      const room = MAX_KEPT_OUTPUT_CHARS - kept.stdout.length - kept.stderr.length;
      const taken = text.slice(0, Math.max(0, room));
      kept.dropped += text.length - taken.length;
      kept[stream] += taken;
      return taken === '' ? undefined : taken;
    };
    const result = (exitCode: number): BashCommandResult => ({
      exit_code: exitCode,
      stdout: kept.stdout,
      stderr:
        kept.dropped === 0
          ? kept.stderr
          : `${kept.stderr}\n[output truncated: ${kept.dropped} characters past the first ${MAX_KEPT_OUTPUT_CHARS} were dropped]`,
    });
    const output = (fields: { stdout?: string; stderr?: string; exit_code?: number }): void => {
      this.#record({
        kind: 'BashOutput',
        id: randomUUID(),
        timestamp: timestamp(),
        command_id: command.id,
        order: order++,
        exit_code: fields.exit_code ?? null,
        stdout: fields.stdout ?? null,
        stderr: fields.stderr ?? null,
      });
    };
    const failed = (message: string): BashCommandResult => {
      const stderr = `Could not start the command: ${message}`;
      output({ stderr, exit_code: -1 });
      return { exit_code: -1, stdout: '', stderr };
    };
    const done = (async (): Promise<BashCommandResult> => {
      if (this.#closed) return failed('the server is shutting down');
      let child: ChildProcess;
      try {
        const sandbox = await this.#sandboxFor(request.cwd, request.roots);
        if (this.#closed) return failed('the server is shutting down');
        child = await sandbox.spawn({
          command: 'bash',
          args: ['-c', request.command],
          cwd: request.cwd,
          env: buildToolEnvironment(undefined),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (error) {
        return failed(error instanceof Error ? error.message : String(error));
      }
      return this.#watch(child, request.timeout, { output, keep, result });
    })();
    return { command, done };
  }

  #watch(
    child: ChildProcess,
    timeout: number,
    io: {
      output: (fields: { stdout?: string; stderr?: string; exit_code?: number }) => void;
      keep: (stream: 'stdout' | 'stderr', text: string) => string | undefined;
      result: (exitCode: number) => BashCommandResult;
    },
  ): Promise<BashCommandResult> {
    const { output, keep, result } = io;
    return new Promise<BashCommandResult>((resolve) => {
      const pid = child.pid;
      const state = { exited: false };
      if (pid !== undefined) this.#live.set(pid, state);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        if (pid !== undefined) this.#kill(pid, state);
      }, timeout * 1000);
      child.on('exit', () => {
        state.exited = true;
      });
      // Only what is kept is recorded: a command printing without end cannot fill the server's memory.
      child.stdout?.setEncoding('utf8').on('data', (text: string) => {
        const taken = keep('stdout', text);
        if (taken !== undefined) output({ stdout: taken });
      });
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        const taken = keep('stderr', text);
        if (taken !== undefined) output({ stderr: taken });
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        if (pid !== undefined) this.#live.delete(pid);
        const stderr = `Could not start the command: ${error.message}`;
        output({ stderr, exit_code: -1 });
        resolve({ exit_code: -1, stdout: '', stderr });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (pid !== undefined) this.#live.delete(pid);
        if (timedOut) {
          const note = `Command timed out after ${timeout} seconds`;
          output({ stderr: note, exit_code: -1 });
          keep('stderr', note);
          resolve(result(-1));
        } else {
          output({ exit_code: code ?? -1 });
          resolve(result(code ?? -1));
        }
      });
    });
  }

  /**
   * Kills every command still running with all it started (its process group and descendants, `setsid` jobs
   * included) and refuses new ones: the server is shutting down.
   */
  async closeAll(): Promise<void> {
    this.#closed = true;
    for (const [pid, state] of this.#live) this.#kill(pid, state);
    // What left the commands' trees (a daemon that double-forked) is still in its sandbox, and dies with it.
    const sandboxes = [...this.#sandboxes.values()];
    this.#sandboxes.clear();
    await Promise.allSettled(sandboxes.map(async (sandbox) => (await sandbox).dispose()));
  }

  #kill(pid: number, state: { exited: boolean }): void {
    if (!state.exited) {
      killProcessTree(pid);
      return;
    }
    // The shell has exited (its pid is no longer ours to follow), but a group outlives it while a background job
    // of it runs, and its id cannot be reused until then.
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is gone too.
    }
  }

  get(id: string): BashEvent | undefined {
    return this.#events.find((event) => event.id === id);
  }

  /** Forgets every event kept so far (the reference's `DELETE /bash_events`); running commands go on recording. */
  clear(): number {
    const count = this.#events.length;
    this.#events = [];
    return count;
  }

  search(query: BashSearch): { items: BashEvent[]; next_page_id: string | null } {
    let matching = this.#events.filter(
      (event) =>
        (query.kind__eq === undefined || event.kind === query.kind__eq) &&
        (query.command_id__eq === undefined ||
          (event.kind === 'BashOutput' ? event.command_id : event.id) === query.command_id__eq) &&
        (query.timestamp__gte === undefined || event.timestamp >= query.timestamp__gte) &&
        (query.timestamp__lt === undefined || event.timestamp < query.timestamp__lt) &&
        (query.order__gt === undefined || (event.kind === 'BashOutput' && event.order > query.order__gt)),
    );
    if (query.sort_order === 'TIMESTAMP_DESC') matching = matching.reverse();
    const found = query.page_id === undefined ? -1 : matching.findIndex((event) => event.id === query.page_id);
    const start = Math.max(0, found);
    const items = matching.slice(start, start + query.limit);
    return { items, next_page_id: matching[start + query.limit]?.id ?? null };
  }

  #record(event: BashEvent): void {
    this.#events.push(event);
    if (this.#events.length > MAX_EVENTS) this.#events.splice(0, this.#events.length - MAX_EVENTS);
  }
}
