import { isAbsolute, join, resolve } from 'node:path';
import { AgentError, confineToRoots, openOrCreateDirectory } from '@x/agent';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';

const field = ['body', 'workspace', 'working_dir'];

function refuse(message: string, cause?: unknown): InvalidRequestError {
  return new InvalidRequestError(`workspace.working_dir: ${message}`, {
    statusCode: 422,
    loc: field,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The working directory of a new conversation: `requested` (absolute, or relative to the conversation's default
 * workspace `<root>/<hex>`), or that default. It must lie inside the workspace root once every symlink is followed,
 * else the request is refused (422 naming `workspace.working_dir`); it is created one component at a time without
 * following a link, and returned as its real path (what the file routes and tools compare against).
 */
export async function resolveWorkingDir(root: string, hex: string, requested: string | undefined): Promise<string> {
  const own = join(root, hex);
  const wanted = requested === undefined ? own : isAbsolute(requested) ? resolve(requested) : resolve(own, requested);
  const confined = await confineToRoots(wanted, [root], { shown: requested ?? own }).catch(
    (error: NodeJS.ErrnoException) => {
      // A symlink loop, a file on the way, a name too long (a WorkspacePathError), EACCES: the path is unusable.
      if (AgentError.isInstance(error) && error.code === 'workspace_path') throw refuse(error.message, error);
      if (typeof error.code === 'string' && error.code.startsWith('E')) {
        throw refuse(`'${requested}' cannot be resolved (${error.code})`, error);
      }
      throw error;
    },
  );
  if (!confined.ok) {
    throw refuse(
      confined.reason === 'dangling_symlink'
        ? `'${requested}' goes through a symlink whose target does not exist`
        : `'${requested}' is outside the server's workspace root ${root}`,
    );
  }
  try {
    const directory = await openOrCreateDirectory(confined.realRoot, confined.real, requested ?? own);
    await directory.close();
  } catch (error) {
    if (AgentError.isInstance(error) && error.code === 'workspace_path') throw refuse(error.message, error);
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('E')) {
      throw refuse(`'${requested}' cannot be used as a directory (${code})`, error);
    }
    throw error;
  }
  return confined.real;
}
