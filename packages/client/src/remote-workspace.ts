import type { z } from 'zod';
import { InvalidOptionError } from './errors/invalid-option-error.js';
import { RemoteGitError } from './errors/remote-git-error.js';
import { RemoteRequestError } from './errors/remote-request-error.js';
import { RemoteRouteNotFoundError } from './errors/remote-route-not-found-error.js';
import { RemoteWorkspacePathError } from './errors/remote-workspace-path-error.js';
import {
  type GitChangesAnswer,
  gitChangesAnswer,
  parseUnreadableRepositories,
  UNREADABLE_REPOSITORIES_HEADER,
} from './git-changes-answer.js';
import {
  type GitChange,
  type GitCommitsPage,
  type GitDiff,
  gitChangeSchema,
  gitCommitsPageSchema,
  gitDiffSchema,
} from './git-schemas.js';
import { RestClient } from './internal/rest-client.js';

/**
 * The server's workspace, as the reference's `RemoteWorkspace` shows it (`git_changes`, `git_diff`), plus the
 * commit routes. Paths are absolute paths inside the server's workspaces; a path in no repository gives an empty
 * answer, as the server's does.
 */
export interface RemoteWorkspace {
  readonly serverUrl: string;
  /**
   * The files changed in the repository at `path` (`GET /api/git/changes`), sorted by path, untracked ones as
   * ADDED: against `ref` (e.g. `HEAD`, a branch, a sha), or the base the server detects (the upstream branch, the
   * fork point with the default branch). Nested repositories git failed on (a damaged index, say) are missing from
   * the list; their directory names are in the answer's `unreadableRepositories` (not enumerable; empty when every
   * repository was read), so that "no changes" is told from "could not be read".
   */
  gitChanges(path: string, options?: { ref?: string }): Promise<GitChangesAnswer>;
  /**
   * The file at `path` now and at the base (`GET /api/git/diff`), or, with `commit`, before and at that commit
   * (read from git's objects, so a file deleted since still shows). `ref` and `commit` exclude each other.
   */
  gitDiff(path: string, options?: { ref?: string; commit?: string }): Promise<GitDiff>;
  /** The most recent commits of the repository at `path` (`GET /api/git/commits`), at most `limit` (1-200, 50). */
  gitCommits(path: string, options?: { limit?: number }): Promise<GitCommitsPage>;
  /** The files commit `sha` changed against its first parent (`GET /api/git/commits/{sha}/changes`). */
  gitCommitChanges(path: string, sha: string): Promise<GitChange[]>;
}

export interface RemoteWorkspaceOptions {
  /** Session API key (`X-Session-API-Key`). */
  apiKey?: string;
}

/** The server's own bounds on the commits of a page. */
const MAX_COMMIT_LIMIT = 200;
/** The code of the git routes' 409: the server's workspace root has been deleted. */
const WORKSPACE_GONE = 'git_workspace_gone';
/** A sha as the server takes it: 4 to 64 hex digits. */
const SHA = /^[0-9a-fA-F]{4,64}$/;

/**
 * A workspace of the agent server at `serverUrl`. Each call is one request; its answer is checked against the
 * route's schema. Errors: `RemoteWorkspacePathError` (403: the path, or its repository, lies outside the
 * workspaces), `RemoteGitError` (400/422: git failed or the request was refused; 409 `git_workspace_gone`: the
 * server's workspace root has been deleted), `RemoteRouteNotFoundError` (404:
 * a server without the git routes), `RemoteAuthError` (401), `RemoteRequestError` (anything else, or an answer that
 * is not the route's), `InvalidOptionError` (refused before any request).
 */
export function createRemoteWorkspace(serverUrl: string, options: RemoteWorkspaceOptions = {}): RemoteWorkspace {
  const rest = new RestClient(serverUrl, options.apiKey);
  const get = async <T>(
    route: string,
    path: string,
    query: Record<string, string | number | undefined>,
    schema: z.ZodType<T>,
    onHeaders?: (headers: Headers) => void,
  ): Promise<T> => {
    const body = await rest.request('GET', route, {
      query: { path, ...query },
      ...(onHeaders === undefined ? {} : { onHeaders }),
      refusal: ({ method, url, status, detail, code }) => {
        if (status === 403) return new RemoteWorkspacePathError({ path, url, detail });
        if (status === 404) return new RemoteRouteNotFoundError({ method, url, why: 'the server has no git routes' });
        if (status === 400 || status === 422)
          return new RemoteGitError({ method, url, status, detail, serverCode: code });
        // Only the deleted workspace root: another 409 (a proxy's, say) stays a RemoteRequestError.
        if (status === 409 && code === WORKSPACE_GONE) {
          return new RemoteGitError({ method, url, status, detail, serverCode: code });
        }
        return undefined;
      },
    });
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    throw new RemoteRequestError({
      method: 'GET',
      url: `${rest.serverUrl}${route}`,
      status: 200,
      detail: `the answer is not what ${route} returns: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`,
    });
  };
  const changes = gitChangeSchema.array();
  return {
    serverUrl: rest.serverUrl,
    gitChanges: async (path, { ref } = {}) => {
      let unreadable: string[] = [];
      const onHeaders = (headers: Headers): void => {
        unreadable = parseUnreadableRepositories(headers.get(UNREADABLE_REPOSITORIES_HEADER));
      };
      return gitChangesAnswer(await get('/api/git/changes', path, { ref }, changes, onHeaders), unreadable);
    },
    gitDiff: (path, { ref, commit } = {}) => {
      if (ref !== undefined && commit !== undefined) {
        const expected = 'left out when `ref` is given (they exclude each other)';
        return Promise.reject(new InvalidOptionError({ call: 'gitDiff', option: 'commit', value: commit, expected }));
      }
      return get('/api/git/diff', path, { ref, commit }, gitDiffSchema);
    },
    gitCommits: (path, { limit } = {}) => {
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MAX_COMMIT_LIMIT)) {
        const expected = `an integer from 1 to ${MAX_COMMIT_LIMIT}`;
        return Promise.reject(new InvalidOptionError({ call: 'gitCommits', option: 'limit', value: limit, expected }));
      }
      return get('/api/git/commits', path, { limit }, gitCommitsPageSchema);
    },
    gitCommitChanges: (path, sha) => {
      if (!SHA.test(sha)) {
        const expected = '4 to 64 hexadecimal digits';
        return Promise.reject(
          new InvalidOptionError({ call: 'gitCommitChanges', option: 'sha', value: sha, expected }),
        );
      }
      return get(`/api/git/commits/${sha}/changes`, path, {}, changes);
    },
  };
}
