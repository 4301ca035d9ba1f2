import { lstat, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { runSandboxed, type Sandbox } from '@x/agent';
import type { ServerSandboxing } from '../sandboxing/server-sandboxing.js';
import { hideServerPaths } from '../security/hide-server-paths.js';
import { serverDirectories } from '../security/server-directories.js';
import { gitCommandFailure } from './git-command-error.js';
import { gitEnvironment, HARDENING_OPTIONS } from './git-hardening.js';
import { GitTimeoutError } from './git-timeout-error.js';

/** Where git is looked up: the system's directories only, never one the agent could write a `git` into. */
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface GitRunnerOptions {
  /** How the bash routes run commands: git runs the same way (bubblewrap, or the operator's `--unsandboxed`). */
  sandboxing: ServerSandboxing;
  /** The server's workspace root: the sandbox's workspace, and where repository discovery stops. */
  workspaceRoot: string;
  /** Longest a git command may run, in milliseconds (the reference's 30 s by default). */
  timeoutMs?: number;
  /** Most output bytes a git command may print (stdout and stderr); past it the command is killed and fails. */
  outputBytes?: number;
  /** Where the server's directory of snapshots is made (the system's temporary directory by default). */
  temporaryDirectory?: string;
  /** The server's data directory: it, x's home, the home and install directories are hidden in git's messages. */
  dataDir?: string;
}

export interface GitRunOptions {
  /** Overrides the output cap for this command. */
  outputBytes?: number;
  /** Overrides the time limit for this command, in milliseconds. */
  timeoutMs?: number;
}

export interface GitRunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export const DEFAULT_GIT_TIMEOUT_MS = 30_000;
export const DEFAULT_GIT_OUTPUT_BYTES = 8 * 1024 * 1024;

/**
 * Runs git for the git routes as the bash routes run commands: in the server's sandbox of the workspace root
 * (opened on first use, ended by `close()`), with an argv (never a shell line), the hardening options and a minimal
 * environment (see git-hardening.ts), a time bound and an output cap. Without a sandbox the server refuses
 * (`SandboxRequiredError`, 503) unless it was started `--unsandboxed`, where git runs on the host, hardened still.
 */
export class GitRunner {
  readonly #options: GitRunnerOptions;
  #serverDirectories: Promise<string[]> | undefined;
  /** The sandbox, and the directory of snapshots its policy lets it read. */
  #sandbox: { opening: Promise<Sandbox>; snapshots: string } | undefined;
  /** Sandboxes replaced after their directory of snapshots was deleted: ended by `close()`, not under a command. */
  readonly #retired: Promise<Sandbox>[] = [];
  #snapshots: Promise<string> | undefined;
  /** Directories of snapshots that were deleted and replaced: still hidden from messages (a late command's). */
  readonly #goneSnapshotRoots: string[] = [];
  #closed = false;

  constructor(options: GitRunnerOptions) {
    this.#options = options;
  }

  /** The server's workspace root (as configured; callers resolve it). */
  get workspaceRoot(): string {
    return this.#options.workspaceRoot;
  }

  /**
   * The server's own directory of git directory snapshots (see git-directory-snapshot.ts): outside the workspace,
   * made on first use, readable (never writable) in the sandbox, removed by `close()`. Made anew when it has gone
   * (a cleaner of the temporary directory, an operator): the sandbox, which mounts it, would otherwise start nothing
   * more, and every route would fail until the server restarts.
   */
  async #snapshotRoot(): Promise<string> {
    const current = this.#snapshots;
    if (current !== undefined) {
      const path = await current.catch(() => undefined);
      const gone = path !== undefined && (await lstat(path).catch(() => undefined))?.isDirectory() !== true;
      // Another request may have replaced it meanwhile: that one is kept.
      if (gone && this.#snapshots === current) {
        this.#snapshots = undefined;
        this.#goneSnapshotRoots.push(path);
      }
    }
    if (this.#snapshots === undefined) {
      const making = mkdtemp(join(this.#options.temporaryDirectory ?? tmpdir(), 'x-git-snapshots-'));
      this.#snapshots = making;
      // A failure (the temporary directory missing or full) is tried again by the next request, not kept.
      making.catch(() => {
        if (this.#snapshots === making) this.#snapshots = undefined;
      });
    }
    return this.#snapshots;
  }

  /** A new empty directory of the server's for one repository's snapshot; the caller removes it. */
  async snapshotDirectory(): Promise<string> {
    if (this.#closed) throw gitCommandFailure([], -1, 'the server is shutting down');
    return mkdtemp(join(await this.#snapshotRoot(), 'repository-'));
  }

  async #open(): Promise<Sandbox> {
    const snapshots = await this.#snapshotRoot();
    if (this.#sandbox !== undefined && this.#sandbox.snapshots !== snapshots) {
      // Its policy mounts the directory that has gone. Commands still running in it are left to end on their own.
      this.#retired.push(this.#sandbox.opening);
      this.#sandbox = undefined;
    }
    if (this.#sandbox === undefined) {
      const { sandboxing, workspaceRoot } = this.#options;
      const policy = sandboxing.policyFor({ readablePaths: [snapshots] });
      const opening = sandboxing.open({ policy, workspace: workspaceRoot });
      const entry = { opening, snapshots };
      this.#sandbox = entry;
      // A failed open is tried again by the next command.
      opening.catch(() => {
        if (this.#sandbox === entry) this.#sandbox = undefined;
      });
    }
    return this.#sandbox.opening;
  }

  /**
   * `text` as a client may read it: the server's paths outside the workspace (its snapshots above all) hidden, those in
   * the workspace kept (see security/hide-server-paths.ts). Every failure a git route answers with goes through it.
   */
  async hidePaths(text: string): Promise<string> {
    const workspaceRoots = [resolve(this.#options.workspaceRoot)];
    const realRoot = await realpath(this.#options.workspaceRoot).catch(() => undefined);
    if (realRoot !== undefined) workspaceRoots.push(realRoot);
    const snapshots = await this.#snapshots?.catch(() => undefined);
    this.#serverDirectories ??=
      this.#options.dataDir === undefined ? Promise.resolve([]) : serverDirectories({ dataDir: this.#options.dataDir });
    const directories: string[] = [...this.#goneSnapshotRoots, ...(await this.#serverDirectories)];
    if (snapshots !== undefined) {
      directories.push(snapshots, resolve(snapshots));
      const realSnapshots = await realpath(snapshots).catch(() => undefined);
      if (realSnapshots !== undefined) directories.push(realSnapshots);
    }
    return hideServerPaths(text, { workspaceRoots, directories });
  }

  /**
   * Runs `git <hardening> <args>` in `cwd`; a nonzero exit is in the result. A command still running at the time
   * limit is killed with all it started (`GitTimeoutError`); one past the output cap or that could not start throws
   * `GitCommandError`.
   */
  async run(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitRunResult> {
    this.#options.sandboxing.assertCanRun();
    if (this.#closed) throw gitCommandFailure(args, -1, 'the server is shutting down');
    const ceiling = dirname(await realpath(this.#options.workspaceRoot));
    const sandbox = await this.#open();
    const fullArgs = [...HARDENING_OPTIONS, ...args];
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
    const result = await runSandboxed(sandbox, {
      command: 'git',
      args: fullArgs,
      cwd,
      env: gitEnvironment({ path: SYSTEM_PATH, ceiling }),
      wallTimeMs: timeoutMs,
      outputBytes: options.outputBytes ?? this.#options.outputBytes ?? DEFAULT_GIT_OUTPUT_BYTES,
    });
    if (result.limit === 'wall_time') throw new GitTimeoutError(args, timeoutMs);
    if (result.limit === 'output' || result.truncated) {
      throw gitCommandFailure(args, -1, 'it printed more than the output limit (the listing is too large)');
    }
    if (result.exitCode === null) throw gitCommandFailure(args, -1, result.stderr);
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  }

  /** Like `run`, and a nonzero exit throws `GitCommandError`. */
  async runOrThrow(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
    const result = await this.run(cwd, args, options);
    if (result.exitCode !== 0) throw gitCommandFailure(args, result.exitCode, result.stderr.trim());
    return result.stdout;
  }

  /** Ends the sandbox and everything still running in it; nothing more runs. */
  async close(): Promise<void> {
    this.#closed = true;
    const sandboxes = [...this.#retired.splice(0), ...(this.#sandbox === undefined ? [] : [this.#sandbox.opening])];
    this.#sandbox = undefined;
    for (const sandbox of sandboxes) await (await sandbox.catch(() => undefined))?.dispose();
    const snapshots = await this.#snapshots?.catch(() => undefined);
    if (snapshots !== undefined) await rm(snapshots, { recursive: true, force: true });
  }
}
