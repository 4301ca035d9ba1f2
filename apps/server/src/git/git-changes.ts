import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveBaseRef } from './base-ref.js';
import { GitError } from './git-error.js';
import { withGitRepository } from './git-repository.js';
import { GitRepositoryError } from './git-repository-error.js';
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
 * repository's top directory. Throws `GitRepositoryError` when `directory` is in no repository (with `ownWorkTree`,
 * when it is not the top of its repository's work tree),
 * `GitOutsideWorkspaceError` when its repository reaches outside the workspace.
 */
export async function getChangesInRepository(
  runner: GitRunner,
  directory: string,
  ref: string | undefined,
  options: { ownWorkTree?: boolean } = {},
): Promise<GitChange[]> {
  return withGitRepository(runner, directory, async (repository) => {
    if (options.ownWorkTree === true && repository.workTree !== directory) {
      throw new GitRepositoryError(`${directory} is not the top of a repository of its own`);
    }
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

/** A repository one level below the one asked about that git found but could not list: the answer leaves it out. */
export interface UnreadableRepository {
  /** Its directory's name, relative to the directory asked about. */
  name: string;
  /** The failure (git's or the server's), as the server logs it. */
  error: unknown;
}

/** The changes of `getGitChanges`, and the nested repositories whose changes are missing from them. */
export interface GitChangesListing {
  changes: GitChange[];
  unreadable: UnreadableRepository[];
}

/**
 * The changes of the repository whose work tree is `directory` itself; `undefined` when it has none of its own (a
 * `.git` that git refuses, or one it passes over for the repository around it, such as an empty `.git` directory:
 * the outer repository lists its files), and the failure when git found it but failed on it (a ref it does not
 * have, a damaged object, a work tree outside the workspace): then the answer is partial, and says so.
 */
async function changesOfOwnRepository(
  runner: GitRunner,
  directory: string,
  ref: string | undefined,
): Promise<{ changes: GitChange[] } | { error: unknown } | undefined> {
  try {
    return { changes: await getChangesInRepository(runner, directory, ref, { ownWorkTree: true }) };
  } catch (error) {
    if (GitRepositoryError.isInstance(error)) return undefined;
    if (GitError.isInstance(error)) return { error };
    throw error;
  }
}

/**
 * The reference's `get_git_changes`: the changes of the repository at `directory`, with those of each repository
 * one level below it (a checkout inside the workspace repository) in place of what the outer one says of that
 * directory, prefixed with its name; sorted by path. A nested directory that is no repository of its own is left
 * as the outer one lists it. A nested repository git fails on is left as the outer one lists it too, and named in
 * `unreadable` (the reference only logs it), so that "no changes" is told from "could not be read".
 */
export async function getGitChanges(
  runner: GitRunner,
  directory: string,
  ref: string | undefined,
): Promise<GitChangesListing> {
  const outer = await getChangesInRepository(runner, directory, ref);
  const nested: Array<{ name: string; changes: GitChange[] }> = [];
  const unreadable: UnreadableRepository[] = [];
  for (const name of await nestedRepositories(directory)) {
    const own = await changesOfOwnRepository(runner, join(directory, name), ref);
    if (own === undefined) continue;
    if ('error' in own) unreadable.push({ name, error: own.error });
    else nested.push({ name, changes: own.changes });
  }
  const insideNested = (path: string): boolean =>
    nested.some(({ name }) => path === name || path.startsWith(`${name}/`));
  const changes = outer.filter((change) => !insideNested(change.path));
  for (const { name, changes: inner } of nested) {
    for (const change of inner) changes.push({ status: change.status, path: `${name}/${change.path}` });
  }
  changes.sort((one, other) => (one.path < other.path ? -1 : one.path > other.path ? 1 : 0));
  return { changes, unreadable };
}
