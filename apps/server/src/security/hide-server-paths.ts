import { isPathInside } from '@x/agent';

/** What a client reads where a message named a path of the server's outside the workspace. */
export const HIDDEN_PATH = '<server path>';

/**
 * An absolute path as git and Node print one in a message: after the start, a blank, a quote, `=` (`--git-dir=`) or
 * an opening bracket; up to the next blank, quote or closing bracket. `//` (a URL's) is not taken for one.
 */
const ABSOLUTE_PATH = /(^|[\s'"`=(<[{,])(\/(?!\/)[^\s'"`)\]}>,;]*)/g;
/** What ends a sentence after a path (`... in file /a/b.` or `/a/b: No such file`), not part of it. */
const TRAILING_PUNCTUATION = /[.:]+$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` (git's stderr, a Node error's message) with each path of the server's outside the workspace replaced by
 * `HIDDEN_PATH`: the server's own `directories` (its snapshots) wherever they appear, blanks in them included, and
 * then every absolute path that is not inside one of `workspaceRoots` (`..` resolved first, so no path climbs out).
 * A path inside the workspace is kept: it is the client's own, and it makes the message useful.
 */
export function hideServerPaths(
  text: string,
  options: { workspaceRoots: readonly string[]; directories?: readonly string[] },
): string {
  let shown = text;
  const directories = [...(options.directories ?? [])].filter((directory) => directory.length > 1);
  for (const directory of directories.sort((one, other) => other.length - one.length)) {
    shown = shown.replace(new RegExp(`${escapeRegExp(directory)}(?:/[^\\s'"\`)\\]}>,;]*)?`, 'g'), HIDDEN_PATH);
  }
  return shown.replace(ABSOLUTE_PATH, (match: string, before: string, path: string) => {
    const ending = TRAILING_PUNCTUATION.exec(path)?.[0] ?? '';
    const bare = path.slice(0, path.length - ending.length);
    if (options.workspaceRoots.some((root) => isPathInside(root, bare))) return match;
    return `${before}${HIDDEN_PATH}${ending}`;
  });
}
