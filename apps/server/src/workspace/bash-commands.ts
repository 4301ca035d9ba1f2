import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { buildToolEnvironment, killProcessTree } from '@x/agent';

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
  order__gt?: number | undefined;
  sort_order: 'TIMESTAMP' | 'TIMESTAMP_DESC';
  page_id?: string | undefined;
  limit: number;
}

/** Most events kept in memory; the oldest commands' events go first. */
const MAX_EVENTS = 10_000;

function timestamp(): string {
  // The reference's naive isoformat (microseconds, no offset).
  return new Date().toISOString().replace('Z', '000');
}

/**
 * The reference's bash service (`/api/bash/...`): each command runs in `bash -c` with the tools' minimal
 * environment (no host credentials), in a confined working directory; its output is recorded as
 * BashOutput events (in memory) that clients poll with `order__gt`. A command past its timeout is killed
 * (exit code -1 with a note on stderr, as the reference's client reports a timeout).
 */
export class BashCommands {
  readonly #events: BashEvent[] = [];
  /**
   * Commands whose output is not closed yet, by the pid of their shell (the leader of its own process group), and
   * whether that shell has exited (background jobs may still hold the output open).
   */
  readonly #live = new Map<number, { exited: boolean }>();
  #closed = false;

  start(request: { command: string; cwd: string; timeout: number }): {
    command: BashCommandEvent;
    done: Promise<void>;
  } {
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
    const done = new Promise<void>((resolve) => {
      if (this.#closed) {
        output({ stderr: 'Could not start the command: the server is shutting down', exit_code: -1 });
        resolve();
        return;
      }
      const child = spawn('bash', ['-c', request.command], {
        cwd: request.cwd,
        env: buildToolEnvironment(undefined),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const pid = child.pid;
      const state = { exited: false };
      if (pid !== undefined) this.#live.set(pid, state);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        if (pid !== undefined) this.#kill(pid, state);
      }, request.timeout * 1000);
      child.on('exit', () => {
        state.exited = true;
      });
      child.stdout.setEncoding('utf8').on('data', (text: string) => output({ stdout: text }));
      child.stderr.setEncoding('utf8').on('data', (text: string) => output({ stderr: text }));
      child.on('error', (error) => {
        clearTimeout(timer);
        if (pid !== undefined) this.#live.delete(pid);
        output({ stderr: `Could not start the command: ${error.message}`, exit_code: -1 });
        resolve();
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (pid !== undefined) this.#live.delete(pid);
        if (timedOut) output({ stderr: `Command timed out after ${request.timeout} seconds`, exit_code: -1 });
        else output({ exit_code: code ?? -1 });
        resolve();
      });
    });
    return { command, done };
  }

  /**
   * Kills every command still running with all it started (its process group and descendants, `setsid` jobs
   * included) and refuses new ones: the server is shutting down.
   */
  closeAll(): void {
    this.#closed = true;
    for (const [pid, state] of this.#live) this.#kill(pid, state);
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

  search(query: BashSearch): { items: BashEvent[]; next_page_id: string | null } {
    let matching = this.#events.filter(
      (event) =>
        (query.kind__eq === undefined || event.kind === query.kind__eq) &&
        (query.command_id__eq === undefined ||
          (event.kind === 'BashOutput' ? event.command_id : event.id) === query.command_id__eq) &&
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
