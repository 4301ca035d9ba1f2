import { AgentError } from '@x/agent';
import { ServerError } from '../errors.js';
import { GitInternalError } from './git-internal-error.js';

/**
 * What a git route throws for `failure`, so that no path of the server's outside the workspace reaches the client
 * (git's stderr, a Node error's path, a sandbox's message): an error of the server's or the agent's keeps its class,
 * and so its status, with `hidePaths` applied to its message; anything else (a file system error of the server's
 * own) becomes a `GitInternalError` (500) composed from its message with the paths hidden, the failure its cause.
 */
export async function shownGitFailure(
  failure: unknown,
  hidePaths: (text: string) => Promise<string>,
): Promise<unknown> {
  if (!(failure instanceof Error)) return failure;
  if (ServerError.isInstance(failure) || AgentError.isInstance(failure)) {
    failure.message = await hidePaths(failure.message);
    return failure;
  }
  return new GitInternalError(await hidePaths(failure.message), { cause: failure });
}
