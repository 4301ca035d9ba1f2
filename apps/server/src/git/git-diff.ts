import { relative, sep } from 'node:path';
import { resolveBaseRef } from './base-ref.js';
import { closestRepositoryTop, MAX_FILE_SIZE_FOR_GIT_DIFF, readWorkTreeFile, tooLarge } from './file-contents.js';
import { GitPathError } from './git-path-error.js';
import { type GitRepository, withGitRepository } from './git-repository.js';
import { GitRepositoryError } from './git-repository-error.js';
import type { GitRunner } from './git-runner.js';
import type { GitDiff } from './git-schemas.js';

/** A file's path in its repository, with `/` separators; refused when it is not below the repository's top. */
export function pathInRepository(file: string, top: string): string {
  const inside = relative(top, file);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`)) {
    throw new GitPathError(`File is not within git repository: ${file}`);
  }
  return inside.split(sep).join('/');
}

/**
 * The content of `path` in `revision` (a hex object name) straight from git's objects (`cat-file`, which runs no
 * filter or textconv), trimmed as the reference's `git show` output is; empty when the file is not in it. A blob
 * past `MAX_FILE_SIZE_FOR_GIT_DIFF` is refused (`GitPathError`) before it is read.
 */
export async function blobAt(repository: GitRepository, revision: string, path: string): Promise<string> {
  const spec = `${revision}:${path}`;
  const size = (await repository.probe(['cat-file', '-s', '--end-of-options', spec]))?.trim();
  if (size === undefined) return '';
  const bytes = Number.parseInt(size, 10);
  if (bytes > MAX_FILE_SIZE_FOR_GIT_DIFF) throw tooLarge(bytes);
  const content = await repository.probe(['cat-file', 'blob', '--end-of-options', spec]);
  return content?.trim() ?? '';
}

/**
 * The reference's `get_git_diff`: the work tree's `file` (confined to `root`, symlinks followed) against its
 * content at `ref` or the auto-detected base of the change list. The file must exist (`GitPathError`); a file in
 * no repository throws `GitRepositoryError`.
 */
export async function getGitDiff(
  runner: GitRunner,
  options: { file: string; root: string; ref: string | undefined },
): Promise<GitDiff> {
  const { file, root, ref } = options;
  // The file is read (and refused when missing or too large) before the repository is looked for, as in the reference.
  const modified = await readWorkTreeFile(file);
  const top = await closestRepositoryTop(file, root);
  if (top === undefined) throw new GitRepositoryError(`File is not in a git repository: ${file}`);
  const original = await withGitRepository(runner, top, async (repository) => {
    const base = await resolveBaseRef(repository, ref);
    return blobAt(repository, base, pathInRepository(file, top));
  });
  return { modified, original };
}
