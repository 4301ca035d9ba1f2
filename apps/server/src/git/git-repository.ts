import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GitCommandError, gitCommandFailure } from './git-command-error.js';
import {
  type GitDirectoryLocation,
  SNAPSHOT_COMMON_ENTRIES,
  snapshotConfiguration,
  writeGitDirectorySnapshot,
} from './git-directory-snapshot.js';
import { GitRepositoryError } from './git-repository-error.js';
import { type GitRepositoryLocation, locateGitRepository } from './git-repository-location.js';
import type { GitRunner, GitRunOptions } from './git-runner.js';
import { GitTimeoutError } from './git-timeout-error.js';
import { readRepositoryHead } from './repository-head.js';

/** The hash of the empty tree: the base of a root commit, and of a branch without commits. */
export const GIT_EMPTY_TREE_HASH = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** A full or abbreviated object name as git prints it: hex only, so it can never be read as an option. */
const OBJECT_NAME = /^[0-9a-f]{4,64}$/;

/**
 * One repository, opened for a directory inside the workspace: every git command of a route runs through it, in
 * that directory, against the git directory and work tree found when it was opened (both inside the workspace), and
 * with a snapshot of the repository's configuration taken then, keeping none of the settings that name a program or
 * a path (git-directory-snapshot.ts): what the agent writes to the configuration while a route runs is not read.
 */
export class GitRepository {
  readonly directory: string;
  /** The top of the work tree git uses (real, inside the workspace), or undefined for a bare repository. */
  readonly workTree: string | undefined;
  readonly #runner: GitRunner;
  /** `--git-dir` (the snapshot) and `--work-tree`, before every command's own arguments. */
  readonly #location: readonly string[];
  readonly #snapshot: string;
  /** What git's messages say instead of a path in the snapshot: the repository's own git directories. */
  readonly #shownDirectories: GitDirectoryLocation;

  private constructor(
    directory: string,
    runner: GitRunner,
    options: { snapshot: string; location: GitRepositoryLocation },
  ) {
    const { workTree } = options.location;
    this.directory = directory;
    this.workTree = workTree;
    this.#runner = runner;
    this.#snapshot = options.snapshot;
    this.#shownDirectories = options.location;
    this.#location = [`--git-dir=${options.snapshot}`, ...(workTree === undefined ? [] : [`--work-tree=${workTree}`])];
  }

  /**
   * Opens the repository holding `directory` (git's discovery, stopped at the workspace root); `close()` it when
   * done (or use `withGitRepository`). Throws `GitRepositoryError` when the directory is missing, not a directory,
   * or in no repository, and `GitOutsideWorkspaceError` when the repository's git directory or work tree lies
   * outside the workspace root.
   */
  static async open(runner: GitRunner, directory: string): Promise<GitRepository> {
    const info = await stat(directory).catch(() => undefined);
    if (info === undefined) throw new GitRepositoryError(`Directory does not exist: ${directory}`);
    if (!info.isDirectory()) throw new GitRepositoryError(`Path is not a directory: ${directory}`);
    const location = await locateGitRepository(runner, directory);
    const head = await readRepositoryHead(location.gitDirectory, directory);
    const listing = await runner.runOrThrow(directory, [
      `--git-dir=${location.gitDirectory}`,
      'config',
      '--null',
      '--list',
      '--show-scope',
    ]);
    const configuration = snapshotConfiguration(listing, { bare: location.workTree === undefined });
    const snapshot = await runner.snapshotDirectory();
    try {
      await writeGitDirectorySnapshot(snapshot, { location, configuration, head });
    } catch (error) {
      await rm(snapshot, { recursive: true, force: true });
      throw error;
    }
    return new GitRepository(directory, runner, { snapshot, location });
  }

  /** Removes the snapshot; nothing more runs. */
  async close(): Promise<void> {
    await rm(this.#snapshot, { recursive: true, force: true });
  }

  /**
   * git's output; a nonzero exit throws `GitCommandError`, whose message names the command's own arguments and the
   * repository's git directory, never the server's snapshot of it (a path the client must not see).
   */
  async git(args: readonly string[], options: GitRunOptions = {}): Promise<string> {
    try {
      return await this.#runner.runOrThrow(this.directory, [...this.#location, ...args], options);
    } catch (error) {
      if (!GitCommandError.isInstance(error)) throw error;
      if (GitTimeoutError.isInstance(error)) throw new GitTimeoutError(args, error.timeoutMs);
      throw gitCommandFailure(args, error.exitCode, this.#withoutSnapshot(error.stderr));
    }
  }

  /** `text` with each path in the snapshot replaced by the path in the repository it links to or stands for. */
  #withoutSnapshot(text: string): string {
    const { gitDirectory, commonDirectory } = this.#shownDirectories;
    let shown = text;
    for (const entry of SNAPSHOT_COMMON_ENTRIES) {
      shown = shown.replaceAll(join(this.#snapshot, entry), join(commonDirectory, entry));
    }
    return shown.replaceAll(this.#snapshot, gitDirectory);
  }

  /** git's output, or undefined when it exits nonzero (a probe for something that may not exist). */
  async probe(args: readonly string[]): Promise<string | undefined> {
    try {
      return await this.git(args);
    } catch (error) {
      if (GitCommandError.isInstance(error) && error.exitCode > 0) return undefined;
      throw error;
    }
  }

  /** The commit `revision` names (full hex sha), or undefined when it names none. */
  async revParse(revision: string): Promise<string | undefined> {
    const sha = (await this.probe(['rev-parse', '--verify', '--quiet', '--end-of-options', revision]))?.trim();
    return sha !== undefined && OBJECT_NAME.test(sha) ? sha : undefined;
  }

  /** The merge base of two revisions, or undefined (unrelated histories, a shallow clone). */
  async mergeBase(one: string, other: string): Promise<string | undefined> {
    const sha = (await this.probe(['merge-base', '--end-of-options', one, other]))?.trim();
    return sha !== undefined && OBJECT_NAME.test(sha) ? sha : undefined;
  }

  /** The current branch's name, or undefined when HEAD is detached or unborn. */
  async currentBranch(): Promise<string | undefined> {
    const branch = (await this.probe(['rev-parse', '--abbrev-ref', 'HEAD']))?.trim();
    return branch === undefined || branch === '' || branch === 'HEAD' ? undefined : branch;
  }

  /** Whether any ref leads to a commit (a fresh `git init` has none). */
  async hasCommits(): Promise<boolean> {
    const count = (await this.probe(['rev-list', '--count', '--all']))?.trim();
    return count !== undefined && count !== '0';
  }

  /** Whether the index or the tracked work tree differs from HEAD (untracked files do not count). */
  async hasTrackedChanges(): Promise<boolean> {
    const status = await this.probe([
      'status',
      '--porcelain',
      '--untracked-files=no',
      '--ignore-submodules=dirty',
      '--no-renames',
    ]);
    // Unknown is taken as dirty: the branch keeps comparing against its own upstream (the reference's fail-safe).
    return status === undefined || status.trim() !== '';
  }
}

/** Whether `value` is an object name as git prints it (the only thing passed on from one command to the next). */
export function isObjectName(value: string): boolean {
  return OBJECT_NAME.test(value);
}

/** Runs `work` on the repository holding `directory`, and removes the repository's snapshot after it. */
export async function withGitRepository<T>(
  runner: GitRunner,
  directory: string,
  work: (repository: GitRepository) => Promise<T>,
): Promise<T> {
  const repository = await GitRepository.open(runner, directory);
  try {
    return await work(repository);
  } finally {
    await repository.close();
  }
}
