import { clientText } from '../internal/client-text.js';
import { GitCommandError } from './git-command-error.js';
import { GIT_EMPTY_TREE_HASH, type GitRepository } from './git-repository.js';

/**
 * The commit a change list or file diff compares against (the reference's `get_valid_ref` with
 * `purpose="display"`). With `override` (`HEAD`, a branch, a sha), that commit: an unresolvable `HEAD` (no commit
 * on the current branch yet) is the empty tree so untracked files show as additions; any other unresolvable ref
 * throws `GitCommandError`, so a typo is not taken for "no changes". Without it, the base auto-detected by
 * `displayBase`. Every result is a hex object name.
 */
export async function resolveBaseRef(repository: GitRepository, override?: string): Promise<string> {
  if (override !== undefined) {
    const sha = await repository.revParse(`${override}^{commit}`);
    if (sha !== undefined) return sha;
    if (override === 'HEAD') return GIT_EMPTY_TREE_HASH;
    throw new GitCommandError(
      `Git command failed: ref '${clientText(override)}' does not name a commit in the repository`,
      {
        args: ['rev-parse', '--verify', `${override}^{commit}`],
        exitCode: 1,
        stderr: 'Needed a single revision',
      },
    );
  }
  if (!(await repository.hasCommits())) return GIT_EMPTY_TREE_HASH;
  return displayBase(repository);
}

/**
 * origin's default branch from the local `origin/HEAD` (recorded by a clone). Unlike the reference, there is no
 * fallback to `git remote show origin`: that asks the remote over the network, which git here never reaches.
 */
async function remoteDefaultBranch(repository: GitRepository): Promise<string | undefined> {
  const symbolic = (await repository.probe(['rev-parse', '--abbrev-ref', 'origin/HEAD']))?.trim();
  const prefix = 'origin/';
  return symbolic?.startsWith(prefix) === true && symbolic.length > prefix.length
    ? symbolic.slice(prefix.length)
    : undefined;
}

/**
 * The base that shows what has changed here, committed and pushed work included (the reference's
 * `_get_display_base_ref`), in order: `origin/<branch>` unless it is HEAD with a clean tracked tree (a fully
 * pushed branch would show nothing); the fork point with `origin/<default>`, else its tip; without an origin
 * default, the fork point with a local `main`/`master` that is another branch and an ancestor of HEAD; HEAD;
 * the empty tree for an unborn HEAD.
 */
async function displayBase(repository: GitRepository): Promise<string> {
  const head = await repository.revParse('HEAD');
  const branch = await repository.currentBranch();
  if (branch !== undefined) {
    const upstream = await repository.revParse(`refs/remotes/origin/${branch}`);
    if (upstream !== undefined && (upstream !== head || (await repository.hasTrackedChanges()))) return upstream;
  }
  const defaultBranch = await remoteDefaultBranch(repository);
  if (defaultBranch !== undefined) {
    const forkPoint = await repository.mergeBase('HEAD', `refs/remotes/origin/${defaultBranch}`);
    if (forkPoint !== undefined) return forkPoint;
    const tip = await repository.revParse(`refs/remotes/origin/${defaultBranch}`);
    if (tip !== undefined) return tip;
  } else {
    for (const localDefault of ['main', 'master']) {
      const tip = await repository.revParse(`refs/heads/${localDefault}`);
      if (tip === undefined) continue;
      if (localDefault !== branch) {
        const forkPoint = await repository.mergeBase('HEAD', tip);
        if (forkPoint === tip) return forkPoint;
      }
      break;
    }
  }
  return head ?? GIT_EMPTY_TREE_HASH;
}
