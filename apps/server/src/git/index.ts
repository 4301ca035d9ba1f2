export { GitCommandError } from './git-command-error.js';
export { GitError, type GitErrorCode } from './git-error.js';
export { GitInternalError } from './git-internal-error.js';
export { GitOutsideWorkspaceError } from './git-outside-workspace-error.js';
export { GitPathError } from './git-path-error.js';
export { GitRefError } from './git-ref-error.js';
export { GitRepositoryError } from './git-repository-error.js';
export { type GitRoutesOptions, registerGitRoutes, UNREADABLE_REPOSITORIES_HEADER } from './git-routes.js';
export {
  type GitChange,
  type GitChangeStatus,
  type GitCommit,
  type GitCommitsPage,
  type GitDiff,
  gitChangeSchema,
  gitChangeStatusSchema,
  gitCommitSchema,
  gitCommitsPageSchema,
  gitDiffSchema,
} from './git-schemas.js';
export { GitTimeoutError } from './git-timeout-error.js';
export { GitWorkspaceGoneError } from './git-workspace-gone-error.js';
