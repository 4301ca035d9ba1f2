import { readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readWorkTreeFile } from './file-contents.js';
import { GitError } from './git-error.js';
import { GitRepositoryError } from './git-repository-error.js';

/** A symbolic HEAD as git's discovery accepts it: `ref:`, optional blanks, then a name under `refs/`. */
const SYMBOLIC_HEAD = /^ref:[ \t]*(refs\/[^\0\n]+)$/;

/** A detached HEAD: a full object name (SHA-1 or SHA-256). */
const DETACHED_HEAD = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The `HEAD` of the git directory `gitDirectory` (real, confined to the workspace) as the repository's snapshot
 * holds it: `ref: refs/heads/<branch>` (a branch, born or not) or the commit of a detached HEAD. Read from the file
 * as git reads it (a legacy symlink to `refs/...` included), rather than by two more git commands; the file is opened
 * without following a link swapped in and without blocking on a FIFO. Throws `GitRepositoryError`, naming
 * `directory` (the directory the client asked about), when it is neither.
 */
export async function readRepositoryHead(gitDirectory: string, directory: string): Promise<string> {
  const path = join(gitDirectory, 'HEAD');
  const refused = new GitRepositoryError(
    `The HEAD of the repository of ${directory} names neither a branch nor a commit`,
  );
  const link = await readlink(path).catch(() => undefined);
  if (link !== undefined) {
    if (link.startsWith('refs/') && !/[\0\n]/.test(link)) return `ref: ${link}`;
    throw refused;
  }
  const text = await readWorkTreeFile(path).catch((error: unknown) => {
    if (GitError.isInstance(error)) throw refused;
    throw error;
  });
  const head = text.trimEnd();
  const branch = SYMBOLIC_HEAD.exec(head)?.[1];
  if (branch !== undefined) return `ref: ${branch}`;
  if (DETACHED_HEAD.test(head)) return head;
  throw refused;
}
