import { hideServerPaths } from '../security/hide-server-paths.js';

export interface ExceptionTextOptions {
  /** Directories whose paths a client may read (the workspace root, as given and resolved): kept in the text. */
  workspaceRoots?: readonly string[];
  /** The server's own directories (data, persistence), hidden wherever they appear, blanks in them included. */
  directories?: readonly string[];
  /** The text with known secret values masked. */
  maskSecrets?: (text: string) => string | Promise<string>;
}

/**
 * The `exception` of a 500 answer: the error's class name and its message as a client may read them. The raw message
 * of an unexpected failure is the server's (a Node error names the absolute path it failed on, a library may quote a
 * key it was given), so secret values are masked first (a masked value cannot be split by a path) and then every
 * absolute path outside the workspace reads `<server path>`, as in the git routes' answers. The full error goes to
 * the server's log only.
 */
export async function exceptionText(error: unknown, options: ExceptionTextOptions = {}): Promise<string> {
  const raw = error instanceof Error ? `${errorName(error)}: ${error.message}` : String(error);
  const masked = options.maskSecrets === undefined ? raw : await options.maskSecrets(raw);
  return hideServerPaths(masked, {
    workspaceRoots: options.workspaceRoots ?? [],
    directories: options.directories ?? [],
  });
}

/**
 * The error's class name: the `name` it gives itself (`GitInternalError`), else its constructor's for a subclass that
 * kept the inherited `Error`.
 */
function errorName(error: Error): string {
  const own = typeof error.name === 'string' && error.name !== '' ? error.name : 'Error';
  if (own !== 'Error') return own;
  const constructorName = (error.constructor as { name?: unknown } | undefined)?.name;
  return typeof constructorName === 'string' && constructorName !== '' ? constructorName : own;
}
