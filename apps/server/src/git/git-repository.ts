import { stat } from 'node:fs/promises';
import { GitCommandError } from './git-command-error.js';
import { filterOverrides } from './git-hardening.js';
import { GitRepositoryError } from './git-repository-error.js';
import type { GitRunner } from './git-runner.js';

/** The hash of the empty tree: the base of a root commit, and of a branch without commits. */
export const GIT_EMPTY_TREE_HASH = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** A full or abbreviated object name as git prints it: hex only, so it can never be read as an option. */
const OBJECT_NAME = /^[0-9a-f]{4,64}$/;

/**
 * One repository, opened for a directory inside the workspace: every git command of a route runs through it, in
 * that directory, with the repository's own filter drivers switched off (read once from its configuration, so
 * that a clean filter `.gitattributes` names cannot run when git reads the work tree).
 */
export class GitRepository {
  readonly directory: string;
  readonly #runner: GitRunner;
  readonly #settings: ReadonlyArray<[string, string]>;

  private constructor(directory: string, runner: GitRunner, settings: ReadonlyArray<[string, string]>) {
    this.directory = directory;
    this.#runner = runner;
    this.#settings = settings;
  }

  /**
   * Opens the repository holding `directory` (git's discovery, stopped at the workspace root). Throws
   * `GitRepositoryError` when the directory is missing, not a directory, or in no repository.
   */
  static async open(runner: GitRunner, directory: string): Promise<GitRepository> {
    const info = await stat(directory).catch(() => undefined);
    if (info === undefined) throw new GitRepositoryError(`Directory does not exist: ${directory}`);
    if (!info.isDirectory()) throw new GitRepositoryError(`Path is not a directory: ${directory}`);
    const probe = await runner.run(directory, ['rev-parse', '--git-dir']);
    if (probe.exitCode !== 0) throw new GitRepositoryError(`Not a git repository: ${directory}`);
    const config = await runner.runOrThrow(directory, ['config', '--null', '--list']);
    return new GitRepository(directory, runner, filterOverrides(config));
  }

  /** git's output; a nonzero exit throws `GitCommandError`. */
  async git(args: readonly string[], options: { outputBytes?: number } = {}): Promise<string> {
    return this.#runner.runOrThrow(this.directory, args, { ...options, settings: this.#settings });
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
