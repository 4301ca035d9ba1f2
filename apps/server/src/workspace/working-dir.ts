import { isAbsolute, join, resolve } from 'node:path';
import { AgentError, confineToRoots, openOrCreateDirectory } from '@x/agent';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { clientText } from '../internal/client-text.js';
import { assertWorkspaceRootExists } from './existing-workspace-root.js';

const field = ['body', 'workspace', 'working_dir'];

/**
 * The refusal of a working directory: a deleted workspace root (409 `workspace_gone`) rather than the request's
 * fault, since every path under a missing root resolves outside it; else a 422 naming `workspace.working_dir`.
 */
async function refuse(root: string, message: string, cause?: unknown): Promise<never> {
  await assertWorkspaceRootExists(root);
  throw new InvalidRequestError(`workspace.working_dir: ${message}`, {
    statusCode: 422,
    loc: field,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The working directory of a new conversation: `requested` (absolute, or relative to the conversation's default
 * workspace `<root>/<hex>`), or that default. It must lie inside the workspace root once every symlink is followed,
 * else the request is refused (422 naming `workspace.working_dir`); it is created one component at a time without
 * following a link, and returned as its real path (what the file routes and tools compare against). A workspace root
 * deleted while the server runs is refused (409 `workspace_gone`) and never made again: an empty root would hide that
 * every conversation's working directory has gone.
 */
export async function resolveWorkingDir(root: string, hex: string, requested: string | undefined): Promise<string> {
  await assertWorkspaceRootExists(root);
  const own = join(root, hex);
  const wanted = requested === undefined ? own : isAbsolute(requested) ? resolve(requested) : resolve(own, requested);
  const confined = await confineToRoots(wanted, [root], { shown: clientText(requested ?? own) }).catch(
    (error: NodeJS.ErrnoException) => {
      // A symlink loop, a file on the way, a name too long (a WorkspacePathError), EACCES: the path is unusable.
      if (AgentError.isInstance(error) && error.code === 'workspace_path') return refuse(root, error.message, error);
      if (typeof error.code === 'string' && error.code.startsWith('E')) {
        return refuse(root, `'${clientText(requested)}' cannot be resolved (${error.code})`, error);
      }
      throw error;
    },
  );
  if (!confined.ok) {
    return refuse(
      root,
      confined.reason === 'dangling_symlink'
        ? `'${clientText(requested)}' goes through a symlink whose target does not exist`
        : `'${clientText(requested)}' is outside the server's workspace root ${root}`,
    );
  }
  try {
    const directory = await openOrCreateDirectory(confined.realRoot, confined.real, clientText(requested ?? own));
    await directory.close();
  } catch (error) {
    if (AgentError.isInstance(error) && error.code === 'workspace_path') return refuse(root, error.message, error);
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('E')) {
      return refuse(root, `'${clientText(requested)}' cannot be used as a directory (${code})`, error);
    }
    throw error;
  }
  return confined.real;
}
