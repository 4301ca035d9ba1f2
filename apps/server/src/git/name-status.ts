import { GitCommandError } from './git-command-error.js';
import { DIFF_HARDENING_OPTIONS } from './git-hardening.js';
import type { GitRepository } from './git-repository.js';
import type { GitChange, GitChangeStatus } from './git-schemas.js';

const SINGLE_PATH_STATUS: Readonly<Record<string, GitChangeStatus>> = {
  A: 'ADDED',
  D: 'DELETED',
  M: 'UPDATED',
  // A type change (file to symlink) and an unmerged path are changes of the file (the reference refuses a `T`).
  T: 'UPDATED',
  U: 'UPDATED',
};

function malformed(what: string): GitCommandError {
  return new GitCommandError(`Unexpected git diff output format: ${what}`, {
    args: ['diff', '--name-status', '-z'],
    exitCode: 0,
    stderr: 'Invalid output format',
  });
}

/**
 * Parses `git diff --name-status -z` output: a rename is its old path DELETED and its new path ADDED, a copy its
 * new path ADDED (the reference's mapping). NUL-separated, so a path with spaces, tabs or newlines stays whole.
 */
export function parseNameStatus(output: string): GitChange[] {
  const fields = output.split('\0');
  if (fields.at(-1) === '') fields.pop();
  const changes: GitChange[] = [];
  for (let index = 0; index < fields.length; ) {
    const status = fields[index] ?? '';
    const kind = status.charAt(0);
    if (kind === 'R' || kind === 'C') {
      const from = fields[index + 1];
      const to = fields[index + 2];
      if (from === undefined || to === undefined) throw malformed(`${status} without two paths`);
      if (kind === 'R') changes.push({ status: 'DELETED', path: from });
      changes.push({ status: 'ADDED', path: to });
      index += 3;
      continue;
    }
    const mapped = status.length === 1 ? SINGLE_PATH_STATUS[status] : undefined;
    const path = fields[index + 1];
    if (mapped === undefined) throw malformed(`unexpected git status '${status}'`);
    if (path === undefined) throw malformed(`${status} without a path`);
    changes.push({ status: mapped, path });
    index += 2;
  }
  return changes;
}

/**
 * The files that differ between two revisions of `repository` (`to` omitted: the work tree), as `git diff
 * --name-status` reports them, hardened and NUL-separated; revisions are checked hex shas or refs not starting with `-`.
 */
export async function diffNameStatus(repository: GitRepository, from: string, to?: string): Promise<GitChange[]> {
  const output = await repository.git([
    'diff',
    '--name-status',
    '-z',
    '--no-relative',
    ...DIFF_HARDENING_OPTIONS,
    '--end-of-options',
    from,
    ...(to === undefined ? [] : [to]),
    '--',
  ]);
  return parseNameStatus(output);
}
