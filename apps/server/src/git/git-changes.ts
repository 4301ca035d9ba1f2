import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveBaseRef } from './base-ref.js';
import { GitError } from './git-error.js';
import { withGitRepository } from './git-repository.js';
import type { GitRunner } from './git-runner.js';
import type { GitChange } from './git-schemas.js';
import { diffNameStatus } from './name-status.js';

/** Paths of a NUL-separated listing. */
function nulSeparated(output: string): string[] {
  return output.split('\0').filter((path) => path !== '');
}

/**
 * The changes of the repository holding `directory` against `ref` (or the auto-detected base): what
 * `git diff --name-status` reports, plus untracked files (not ignored) as ADDED. Paths are relative to the
 * repository's top directory. Throws `GitRepositoryError` when `directory` is in no repository,
 * `GitOutsideWorkspaceError` when its repository reaches outside the workspace.
 */
export async function getChangesInRepository(
  runner: GitRunner,
  directory: string,
  ref: string | undefined,
): Promise<GitChange[]> {
  return withGitRepository(runner, directory, async (repository) => {
    const base = await resolveBaseRef(repository, ref);
    const changes = await diffNameStatus(repository, base);
    // As in the reference, a failed listing of untracked files leaves them out rather than failing the whole answer.
    const untracked = await repository
      .git(['ls-files', '-z', '--others', '--exclude-standard', '--full-name'])
      .catch((error: unknown) => {
        if (GitError.isInstance(error)) return '';
        throw error;
      });
    for (const path of nulSeparated(untracked)) changes.push({ status: 'ADDED', path });
    return changes;
  });
}

/** Directories right inside `directory` (not through a symlink) that hold a `.git` of their own. */
async function nestedRepositories(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  const nested: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const marker = await lstat(join(directory, entry.name, '.git')).catch(() => undefined);
    if (marker !== undefined) nested.push(entry.name);
  }
  return nested.sort();
}

/**
 * The reference's `get_git_changes`: the changes of the repository at `directory`, with those of each repository
 * one level below it (a checkout inside the workspace repository) in place of what the outer one says of that
 * directory, prefixed with its name; sorted by path. A nested directory that is no repository is skipped.
 */
export async function getGitChanges(
  runner: GitRunner,
  directory: string,
  ref: string | undefined,
): Promise<GitChange[]> {
  const nested = await nestedRepositories(directory);
  const insideNested = (path: string): boolean => nested.some((name) => path === name || path.startsWith(`${name}/`));
  const changes = (await getChangesInRepository(runner, directory, ref)).filter((change) => !insideNested(change.path));
  for (const name of nested) {
    let inner: GitChange[];
    try {
      inner = await getChangesInRepository(runner, join(directory, name), ref);
    } catch (error) {
      if (GitError.isInstance(error)) continue;
      throw error;
    }
    for (const change of inner) changes.push({ status: change.status, path: `${name}/${change.path}` });
  }
  return changes.sort((one, other) => (one.path < other.path ? -1 : one.path > other.path ? 1 : 0));
}
