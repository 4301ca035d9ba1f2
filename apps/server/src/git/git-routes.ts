import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { filePathSchema } from '../api/request-schemas.js';
import { errorResponses as documentedErrors, type ErrorStatus } from '../api/response-schemas.js';
import { errorSchema } from '../api/tree-schemas.js';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { clientText } from '../internal/client-text.js';
import type { ServerSandboxing } from '../sandboxing/server-sandboxing.js';
import { confinePath } from '../workspace/confine-path.js';
import { existingWorkspaceRoot } from '../workspace/existing-workspace-root.js';
import { getGitChanges } from './git-changes.js';
import { DEFAULT_COMMIT_LIMIT, getCommitChanges, getCommitFileDiff, getGitCommits } from './git-commits.js';
import { getGitDiff } from './git-diff.js';
import { GitRefError } from './git-ref-error.js';
import { GitRepositoryError } from './git-repository-error.js';
import { shownGitFailure } from './git-route-failure.js';
import { GitRunner } from './git-runner.js';
import { gitChangeSchema, gitCommitsPageSchema, gitDiffSchema } from './git-schemas.js';
import { GitWorkspaceGoneError } from './git-workspace-gone-error.js';

export interface GitRoutesOptions {
  /** The server's workspace root: no path outside it is looked at. */
  workspaceRoot: string;
  /** How the bash routes run commands; git runs the same way. */
  sandboxing: ServerSandboxing;
  /** Longest a git command may run, in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Where the routes make their private directory of repository snapshots (the system's temporary directory). */
  temporaryDirectory?: string;
  /** The server's data directory: hidden, with the server's other own directories, in every failure's text. */
  dataDir?: string;
}

/** Hex only, so a sha can never reach git as an option (the reference's `_SHA_PATTERN`). */
const SHA_PATTERN = /^[0-9a-fA-F]{4,64}$/;

const REF_DESCRIPTION =
  "Optional git ref to diff against (e.g. 'HEAD' for git status-style changes, or a commit hash). When omitted, " +
  'the upstream/default branch is auto-detected. A ref starting with `-` is refused (400).';
const COMMIT_DESCRIPTION =
  'Optional commit SHA. When set, the diff is the change that commit introduced (vs its first parent), read ' +
  "entirely from git objects so deleted files still render. Mutually exclusive with 'ref'.";

const refSchema = z
  .string()
  .min(1)
  .max(1024)
  .refine((ref) => !ref.includes('\0'), { message: 'a ref must not contain a NUL byte' })
  .describe(REF_DESCRIPTION);
const repositoryPathSchema = filePathSchema.describe('The git repository path (absolute, inside the workspace root)');

const errors = {
  ...documentedErrors(['400', '401', '422', '500', '503'].map(Number) as ErrorStatus[]),
  409: errorSchema.describe("The server's workspace root has been deleted (`code`: `git_workspace_gone`)"),
  403: errorSchema.describe(
    "The path, or the git directory or work tree of the path's repository, lies outside the workspace root",
  ),
};

/** A ref that git would read as an option is refused before git runs. */
function checkedRef(ref: string | undefined): string | undefined {
  if (ref?.startsWith('-') === true) throw new GitRefError(ref);
  return ref;
}

/**
 * Header of a changes answer that leaves out nested repositories git failed on: their directory names, each
 * percent-encoded, comma-separated (absent when none was left out).
 */
export const UNREADABLE_REPOSITORIES_HEADER = 'x-git-unreadable-repositories';

/** What a route answers for a path in no repository, instead of the error. */
async function unlessNoRepository<T>(work: Promise<T>, empty: T): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (GitRepositoryError.isInstance(error)) return empty;
    throw error;
  }
}

/**
 * The reference's git routes (`/api/git/changes`, `/api/git/diff`, `/api/git/commits`,
 * `/api/git/commits/{sha}/changes`), which its frontend and `RemoteWorkspace` use. Paths are confined to the
 * workspace root (symlinks followed; outside is a 403, a relative path a 400), and so are the git directory and work
 * tree of its repository (a `core.worktree` or `.git` file naming a directory outside is a 403); a path in no
 * repository answers an empty list, diff or page; a workspace root deleted under the server a 409 (`git_workspace_gone`,
 * never made again here); any other git failure is a 400, a failure of the server's own a 500,
 * and no answer names a path of the server's outside the workspace (git-route-failure.ts). git runs sandboxed and
 * hardened (git-runner.ts), on a snapshot of the repository's configuration (git-directory-snapshot.ts).
 */
export function registerGitRoutes(fastify: FastifyInstance, options: GitRoutesOptions): void {
  const runner = new GitRunner({
    sandboxing: options.sandboxing,
    workspaceRoot: options.workspaceRoot,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.temporaryDirectory === undefined ? {} : { temporaryDirectory: options.temporaryDirectory }),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
  });
  fastify.addHook('onClose', async () => runner.close());
  // Made at start-up; deleted since, it is not made again (see git-workspace-gone-error.ts).
  const root = async (): Promise<string> => {
    const real = await existingWorkspaceRoot(options.workspaceRoot);
    if (real === undefined) throw new GitWorkspaceGoneError(options.workspaceRoot);
    return real;
  };
  const answer = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw await shownGitFailure(error, (text) => runner.hidePaths(text));
    }
  };
  const confined = async (path: string): Promise<{ path: string; root: string }> => {
    const realRoot = await root();
    return { path: await confinePath(path, [realRoot]), root: realRoot };
  };

  fastify.register(async (scope) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/git/changes',
      {
        schema: {
          tags: ['git'],
          operationId: 'gitChanges',
          summary: 'The files changed in a repository against a ref or the auto-detected base (untracked as ADDED)',
          querystring: z.object({ path: repositoryPathSchema, ref: refSchema.optional() }),
          response: { 200: z.array(gitChangeSchema).describe('The changes, sorted by path'), ...errors },
        },
      },
      async (request, reply) =>
        answer(async () => {
          const ref = checkedRef(request.query.ref);
          const { path } = await confined(request.query.path);
          const listing = await unlessNoRepository(getGitChanges(runner, path, ref), { changes: [], unreadable: [] });
          if (listing.unreadable.length > 0) {
            for (const { name, error } of listing.unreadable) {
              request.log.warn({ err: error, repository: name }, 'git changes: a nested repository was left out');
            }
            const names = listing.unreadable.map(({ name }) => encodeURIComponent(name));
            void reply.header(UNREADABLE_REPOSITORIES_HEADER, names.join(','));
          }
          return listing.changes;
        }),
    );

    app.get(
      '/api/git/diff',
      {
        schema: {
          tags: ['git'],
          operationId: 'gitDiff',
          summary: "One file's content now and at the base (or before and at a commit)",
          querystring: z.object({
            path: filePathSchema.describe('The file path to get diff for (absolute, inside the workspace root)'),
            ref: refSchema.optional(),
            commit: z.string().regex(SHA_PATTERN).optional().describe(COMMIT_DESCRIPTION),
          }),
          response: { 200: gitDiffSchema, ...errors },
        },
      },
      async (request) =>
        answer(async () => {
          const { commit } = request.query;
          const ref = checkedRef(request.query.ref);
          if (ref !== undefined && commit !== undefined) {
            throw new InvalidRequestError("'ref' and 'commit' are mutually exclusive");
          }
          const { path: file, root: realRoot } = await confined(request.query.path);
          const empty = { modified: null, original: null };
          if (commit !== undefined) {
            return unlessNoRepository(getCommitFileDiff(runner, { file, root: realRoot, commit }), empty);
          }
          return unlessNoRepository(getGitDiff(runner, { file, root: realRoot, ref }), empty);
        }),
    );

    app.get(
      '/api/git/commits',
      {
        schema: {
          tags: ['git'],
          operationId: 'gitCommits',
          summary: "The repository's most recent commits, newest first",
          querystring: z.object({
            path: repositoryPathSchema,
            limit: z.coerce
              .number()
              .int()
              .min(1)
              .max(200)
              .default(DEFAULT_COMMIT_LIMIT)
              .describe('Maximum commits to return'),
          }),
          response: { 200: gitCommitsPageSchema, ...errors },
        },
      },
      async (request) =>
        answer(async () => {
          const { path } = await confined(request.query.path);
          const empty = { commits: [], has_more: false };
          return unlessNoRepository(getGitCommits(runner, path, request.query.limit), empty);
        }),
    );

    app.get(
      '/api/git/commits/:sha/changes',
      {
        schema: {
          tags: ['git'],
          operationId: 'gitCommitChanges',
          summary: 'The files changed by one commit (vs its first parent)',
          params: z.object({ sha: z.string().describe('Commit SHA (4 to 64 hex digits)') }),
          querystring: z.object({ path: repositoryPathSchema }),
          response: { 200: z.array(gitChangeSchema).describe('The changes of the commit'), ...errors },
        },
      },
      async (request) =>
        answer(async () => {
          const { sha } = request.params;
          // Checked here rather than by the params schema, which this server answers with 400: the reference says 422.
          if (!SHA_PATTERN.test(sha)) {
            throw new InvalidRequestError(`sha '${clientText(sha)}' is not 4 to 64 hexadecimal digits`, {
              statusCode: 422,
              loc: ['path', 'sha'],
            });
          }
          const { path } = await confined(request.query.path);
          return unlessNoRepository(getCommitChanges(runner, path, sha), []);
        }),
    );
  });
}
