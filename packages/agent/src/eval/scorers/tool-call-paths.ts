import { isAbsolute, posix, relative, resolve } from 'node:path';
import { toolNameAliases } from '../../tools/internal/normalize-tool-call.js';

/** The built-in tools that take a file or directory, and the arguments that name it. */
const PATH_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  file_editor: ['path'],
  glob: ['path'],
  grep: ['path'],
};

function pathArgumentsOf(tool: string): readonly string[] {
  // Own entries only: a call to a tool named `constructor` (the model names it) takes no path, it is not Object.
  const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
    Object.hasOwn(table, key) ? table[key] : undefined;
  return own(PATH_ARGUMENTS, tool) ?? own(PATH_ARGUMENTS, own(toolNameAliases, tool) ?? '') ?? [];
}

function outside(relativePath: string): boolean {
  return relativePath === '..' || relativePath.startsWith('../') || isAbsolute(relativePath);
}

/**
 * One path the way a trajectory compares it: an absolute path inside the workspace becomes relative to it (`.` for
 * the workspace itself), a relative one loses its `./`, doubled slashes and a trailing slash. A path outside the
 * workspace (absolute, or climbing out with `..`) and any absolute path when the workspace is unknown stay as written.
 */
export function workspacePath(path: string, workspace: string | undefined): string {
  if (path === '') return path;
  if (isAbsolute(path)) {
    if (workspace === undefined) return path;
    const inside = relative(resolve(workspace), resolve(path));
    return outside(inside) ? path : inside || '.';
  }
  const normalized = posix.normalize(path).replace(/(.)\/$/, '$1');
  return outside(normalized) ? path : normalized;
}

/**
 * A tool call's arguments with the paths of a built-in file tool (`file_editor`, `glob`, `grep`) made relative to the
 * workspace as `workspacePath` says; other tools' arguments, and other arguments, are returned as they are.
 */
export function workspaceRelativeArguments(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  workspace: string | undefined,
): Record<string, unknown> {
  const keys = pathArgumentsOf(tool);
  if (keys.length === 0) return { ...args };
  const result: Record<string, unknown> = { ...args };
  for (const key of keys) {
    const value = result[key];
    if (typeof value === 'string') result[key] = workspacePath(value, workspace);
  }
  return result;
}
