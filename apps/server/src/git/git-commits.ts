import { clientText } from '../internal/client-text.js';
import { closestRepositoryTop } from './file-contents.js';
import { GitCommandError } from './git-command-error.js';
import { blobAt, pathInRepository } from './git-diff.js';
import { GIT_EMPTY_TREE_HASH, type GitRepository, withGitRepository } from './git-repository.js';
import { GitRepositoryError } from './git-repository-error.js';
import type { GitRunner } from './git-runner.js';
import type { GitChange, GitCommit, GitCommitsPage, GitDiff } from './git-schemas.js';
import { diffNameStatus } from './name-status.js';

export const DEFAULT_COMMIT_LIMIT = 50;

/** Full sha, short sha, author name, author date (strict ISO 8601), subject; 0x1F cannot occur in any of them. */
const LOG_FORMAT = '%H%x1f%h%x1f%an%x1f%aI%x1f%s';

/**
 * The reference's `get_git_commits`: the most recent commits reachable from HEAD, newest first, at most `limit`,
 * and whether there are more. An unborn HEAD has none. Throws `GitRepositoryError` outside a repository.
 */
export async function getGitCommits(runner: GitRunner, directory: string, limit: number): Promise<GitCommitsPage> {
  return withGitRepository(runner, directory, (repository) => commitsOf(repository, limit));
}

async function commitsOf(repository: GitRepository, limit: number): Promise<GitCommitsPage> {
  const head = await repository.revParse('HEAD');
  if (head === undefined) return { commits: [], has_more: false };
  const output = await repository.git([
    'log',
    '--no-show-signature',
    `--format=${LOG_FORMAT}`,
    '-n',
    String(limit + 1),
    '--end-of-options',
    head,
    '--',
  ]);
  const commits: GitCommit[] = [];
  for (const line of output.split('\n')) {
    const fields = line.split('\x1f');
    // A line that is not five fields (none should be) is skipped, as in the reference.
    if (fields.length !== 5) continue;
    const [sha = '', short_sha = '', author = '', timestamp = '', subject = ''] = fields;
    commits.push({ sha, short_sha, subject, author, timestamp });
  }
  return { commits: commits.slice(0, limit), has_more: commits.length > limit };
}

/** The full sha of `commit` (hex, checked by the route), strictly: an unknown one is a `GitCommandError`. */
async function resolveCommit(repository: GitRepository, commit: string): Promise<string> {
  const sha = await repository.revParse(`${commit}^{commit}`);
  if (sha !== undefined) return sha;
  throw new GitCommandError(`Git command failed: '${clientText(commit)}' does not name a commit in the repository`, {
    args: ['rev-parse', '--verify', `${commit}^{commit}`],
    exitCode: 1,
    stderr: 'Needed a single revision',
  });
}

/** A commit's first parent, or the empty tree for a root commit. */
async function firstParent(repository: GitRepository, sha: string): Promise<string> {
  return (await repository.revParse(`${sha}^`)) ?? GIT_EMPTY_TREE_HASH;
}

/** The reference's `get_commit_changes`: the files `commit` changed against its first parent. */
export async function getCommitChanges(runner: GitRunner, directory: string, commit: string): Promise<GitChange[]> {
  return withGitRepository(runner, directory, async (repository) => {
    const sha = await resolveCommit(repository, commit);
    const parent = await firstParent(repository, sha);
    return diffNameStatus(repository, parent, sha);
  });
}

/**
 * The reference's `get_commit_file_diff`: `file` (confined to `root`) at the commit's first parent and at the
 * commit, both from git's objects (so a file deleted since still shows; the file need not exist on disk).
 */
export async function getCommitFileDiff(
  runner: GitRunner,
  options: { file: string; root: string; commit: string },
): Promise<GitDiff> {
  const { file, root, commit } = options;
  const top = await closestRepositoryTop(file, root);
  if (top === undefined) throw new GitRepositoryError(`File is not in a git repository: ${file}`);
  return withGitRepository(runner, top, async (repository) => {
    const sha = await resolveCommit(repository, commit);
    const parent = await firstParent(repository, sha);
    const path = pathInRepository(file, top);
    const original = await blobAt(repository, parent, path);
    const modified = await blobAt(repository, sha, path);
    return { modified, original };
  });
}
