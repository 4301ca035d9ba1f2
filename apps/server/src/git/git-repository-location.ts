import { realpath } from 'node:fs/promises';
import { isPathInside } from '@x/agent';
import { gitCommandFailure } from './git-command-error.js';
import type { GitDirectoryLocation } from './git-directory-snapshot.js';
import { GitOutsideWorkspaceError } from './git-outside-workspace-error.js';
import { GitRepositoryError } from './git-repository-error.js';
import type { GitRunner } from './git-runner.js';

/** Where git finds the repository of a directory, each path real and inside the workspace root. */
export interface GitRepositoryLocation extends GitDirectoryLocation {
  /** The top of its work tree, or undefined for a bare repository (or a directory inside the git directory). */
  workTree: string | undefined;
}

/** What git says, with exit code 128, where it finds no repository (`LC_ALL=C`: never translated). */
const NOT_A_REPOSITORY = /not a git repository/i;

/** The lines of git's output, the last newline dropped (a path may hold any other character but a newline). */
function outputLines(output: string): string[] {
  return output.replace(/\n$/, '').split('\n');
}

/**
 * The real path of `path`, a directory git would read for the repository of `directory`; refused
 * (`GitOutsideWorkspaceError`, 403) when it lies outside the workspace root `root`.
 */
async function confined(path: string, what: string, context: { directory: string; root: string }): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined)
    throw new GitRepositoryError(`The ${what} of ${context.directory} cannot be resolved: ${path}`);
  if (!isPathInside(context.root, real)) {
    throw new GitOutsideWorkspaceError(
      `The repository of ${context.directory} has its ${what} outside the server's workspaces: ${path}`,
    );
  }
  return real;
}

/**
 * The git directory, common directory and work tree git would use for `directory` (its discovery, stopped at the
 * workspace root, with `core.worktree`, includes and `.git` files as the repository sets them), from one
 * `git rev-parse`. Each is refused (`GitOutsideWorkspaceError`) when it lies outside the workspace root, so that git,
 * given them explicitly afterwards, reads nothing outside it; a directory in no repository throws
 * `GitRepositoryError`. Any other failure of git's (a configuration it cannot parse, a repository format it does not
 * know, a sandbox that could not start it) throws `GitCommandError` with git's stderr: the routes answer it 400
 * rather than an empty answer that would pass a broken repository off as no repository.
 */
export async function locateGitRepository(runner: GitRunner, directory: string): Promise<GitRepositoryLocation> {
  const args = [
    'rev-parse',
    '--path-format=absolute',
    '--git-dir',
    '--git-common-dir',
    // Last, for it dies where there is no work tree, after the others are printed.
    '--show-toplevel',
  ];
  const found = await runner.run(directory, args);
  // Nothing printed: git found no repository, or failed before it could say. Printed and failed: it died at
  // `--show-toplevel`, as the last flag does where there is no work tree (a bare repository, a directory inside the
  // git directory).
  if (found.exitCode !== 0 && found.stdout === '') {
    if (found.exitCode === 128 && NOT_A_REPOSITORY.test(found.stderr)) {
      throw new GitRepositoryError(`Not a git repository: ${directory}`);
    }
    throw gitCommandFailure(args, found.exitCode, found.stderr.trim());
  }
  const [gitDirectory, commonDirectory, ...rest] = outputLines(found.stdout);
  const workTree = found.exitCode === 0 ? rest.shift() : undefined;
  const incomplete = gitDirectory === undefined || commonDirectory === undefined;
  // A path holding a newline would shift the lines: refused rather than guessed at.
  if (incomplete || rest.length > 0 || (found.exitCode === 0 && workTree === undefined)) {
    throw new GitRepositoryError(`The git directory of ${directory} cannot be told from git's answer`);
  }
  const context = { directory, root: await realpath(runner.workspaceRoot) };
  return {
    gitDirectory: await confined(gitDirectory, 'git directory', context),
    commonDirectory: await confined(commonDirectory, 'common git directory', context),
    workTree: workTree === undefined ? undefined : await confined(workTree, 'work tree', context),
  };
}
