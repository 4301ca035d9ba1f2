import { isPathInside } from '@x/agent';

/** What a client reads where a message named a path of the server's outside the workspace. */
export const HIDDEN_PATH = '<server path>';

/** What ends an unquoted path in a message: a blank, a quote, a closing bracket, a list's or clause's separator. */
const PATH_END = `\\s'"\`)\\]}>,;`;
/**
 * An absolute path as git and Node print one in a message: after the start, a blank, a quote, `=` (`--git-dir=`) or
 * an opening bracket; up to the next blank, quote or closing bracket. `//` (a URL's) is not taken for one.
 */
const ABSOLUTE_PATH = new RegExp(`(^|[\\s'"\`=(<[{,])(\\/(?!\\/)[^${PATH_END}]*)`, 'g');
/**
 * An absolute path in quotes (`open '/home/a b/x'`, git's `'...'`): it runs to the closing quote, blanks included, so
 * a blank in it cannot cut the hidden part short.
 */
const QUOTED_PATH = /(['"`])(\/(?!\/)[^'"`\n]*)\1/g;
/** What ends a sentence after a path (`... in file /a/b.` or `/a/b: No such file`), not part of it. */
const TRAILING_PUNCTUATION = /[.:]+$/;

/**
 * True when `text` names a path in the directory `root` from the root's whole name on, and the path as cut (`cut`)
 * fell short of the root's name (a blank in it): the path is then read on past the root, `..` resolved.
 */
function namesFrom(text: string, root: string, cut: string): boolean {
  if (root.length <= cut.length || !text.startsWith(root)) return false;
  const tail = new RegExp(`^[^${PATH_END}]*`).exec(text.slice(root.length))?.[0] ?? '';
  if (tail !== '' && !tail.startsWith('/')) return false;
  return isPathInside(root, `${root}${tail}`.replace(TRAILING_PUNCTUATION, ''));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A known directory where a message names it: the name itself, not the start of a longer one (`/data` is not in
 * `/data2` nor `/data.old`, it is in `/data.` ending a sentence and `/data:`), with what follows it up to the closing
 * quote when the path is quoted, else up to the end of the path.
 */
function directoryPattern(directory: string): RegExp {
  const name = `${escapeRegExp(directory)}(?![^/${PATH_END}.:]|[.:][^/${PATH_END}.:])`;
  return new RegExp(`(['"\`])${name}[^'"\`\\n]*(?=\\1)|${name}(?:/[^${PATH_END}]*)?`, 'g');
}

/**
 * `text` (git's stderr, a Node error's message) with each path of the server's outside the workspace replaced by
 * `HIDDEN_PATH`: first the server's own `directories` (its data directory, home, install directory, snapshots)
 * wherever they appear, whole, blanks in them included, and a quoted path in them up to its closing quote; then every
 * other absolute path that is not inside one of `workspaceRoots` (`..` resolved first, so no path climbs out), a
 * quoted one up to its closing quote. A path inside the workspace is kept, even inside a hidden directory: it is the
 * client's own (the API names the working directory), and it makes the message useful.
 */
export function hideServerPaths(
  text: string,
  options: { workspaceRoots: readonly string[]; directories?: readonly string[] },
): string {
  // A path in the workspace is kept whole: one the text names from its root on (the root's name may have a blank
  // that would cut the path there), or one inside the root once cut.
  const inWorkspace = (path: string, rest: string): boolean => {
    const bare = path.replace(TRAILING_PUNCTUATION, '');
    return options.workspaceRoots.some((root) => isPathInside(root, bare) || namesFrom(rest, root, bare));
  };
  let shown = text;
  const directories = [...new Set(options.directories ?? [])].filter((directory) => directory.length > 1);
  for (const directory of directories.sort((one, other) => other.length - one.length)) {
    shown = shown.replace(directoryPattern(directory), (match: string, quote: string | undefined, offset: number) => {
      const path = quote === undefined ? match : match.slice(1);
      const start = offset + match.length - path.length;
      if (inWorkspace(path, shown.slice(start))) return match;
      const ending = quote === undefined ? (TRAILING_PUNCTUATION.exec(match)?.[0] ?? '') : '';
      return `${quote ?? ''}${HIDDEN_PATH}${ending}`;
    });
  }
  shown = shown.replace(QUOTED_PATH, (match: string, quote: string, path: string) =>
    inWorkspace(path, path) ? match : `${quote}${HIDDEN_PATH}${quote}`,
  );
  const quoted = shown;
  return quoted.replace(ABSOLUTE_PATH, (match: string, before: string, path: string, offset: number) => {
    if (inWorkspace(path, quoted.slice(offset + before.length))) return match;
    const ending = TRAILING_PUNCTUATION.exec(path)?.[0] ?? '';
    return `${before}${HIDDEN_PATH}${ending}`;
  });
}
