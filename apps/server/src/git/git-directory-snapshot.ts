import { readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Settings of a repository's own configuration that change what git reports of it, and name no program, no file
 * and no other repository: the only ones the snapshot keeps (`git config --list` spelling, lower case).
 */
const KEPT_SETTINGS: ReadonlySet<string> = new Set([
  'core.repositoryformatversion',
  'extensions.objectformat',
  'core.filemode',
  'core.symlinks',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.trustctime',
  'core.checkstat',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.quotepath',
  'core.abbrev',
  'core.sparsecheckout',
  'core.sparsecheckoutcone',
  'diff.renames',
  'diff.renamelimit',
  'status.renames',
  'status.renamelimit',
  'i18n.logoutputencoding',
  'i18n.commitencoding',
]);

/** The scopes of the repository's own configuration (`.git/config` and what it includes, `config.worktree`). */
const REPOSITORY_SCOPES: ReadonlySet<string> = new Set(['local', 'worktree']);

/** A value as a configuration file spells it: quoted, so that no character of it ends or comments the line. */
function quoted(value: string): string {
  const escaped = value
    .replaceAll('\\', '\\\\')
    .replaceAll('"', '\\"')
    .replaceAll('\n', '\\n')
    .replaceAll('\t', '\\t')
    .replaceAll('\b', '\\b');
  return `"${escaped}"`;
}

/**
 * The configuration file git reads for one request, from the repository's `git config --null --list --show-scope`
 * output: the repository's kept settings (`KEPT_SETTINGS`; the last of a key wins, as in git) and `core.bare`. Every
 * setting that names a program (filters, hooks, fsmonitor, diff drivers), a file or directory (`core.worktree`,
 * includes, `core.excludesFile`) or a remote is left out, whatever its name.
 */
export function snapshotConfiguration(listing: string, options: { bare: boolean }): string {
  const settings = new Map<string, string>();
  const records = listing.split('\0');
  // Each entry is two records: its scope, then its key, a newline and its value.
  for (let index = 0; index + 1 < records.length; index += 2) {
    const scope = records[index] ?? '';
    const entry = records[index + 1] ?? '';
    const newline = entry.indexOf('\n');
    const key = newline === -1 ? entry : entry.slice(0, newline);
    const value = newline === -1 ? 'true' : entry.slice(newline + 1);
    if (REPOSITORY_SCOPES.has(scope) && KEPT_SETTINGS.has(key)) settings.set(key, value);
  }
  settings.set('core.bare', String(options.bare));
  const sections = new Map<string, string[]>();
  for (const [key, value] of settings) {
    const [section = '', name = ''] = key.split('.');
    sections.set(section, [...(sections.get(section) ?? []), `\t${name} = ${quoted(value)}`]);
  }
  return [...sections].map(([section, lines]) => `[${section}]\n${lines.join('\n')}\n`).join('');
}

/** Where the repository keeps what the snapshot links to (absolute, real, inside the workspace). */
export interface GitDirectoryLocation {
  /** The work tree's own git directory (`HEAD`, the index): `.git`, or `.git/worktrees/<name>` of a linked one. */
  gitDirectory: string;
  /** The directory its refs and objects are in (the same as `gitDirectory` but for a linked work tree). */
  commonDirectory: string;
}

/** What a snapshot links to in the repository's common directory, and in its own git directory. */
export const SNAPSHOT_COMMON_ENTRIES: readonly string[] = ['refs', 'packed-refs', 'objects', 'shallow', 'info'];
const OWN_ENTRIES = ['index'];
/** The shared part of a split index (`core.splitIndex`), which git looks for next to the index's git directory. */
const SHARED_INDEX = /^sharedindex\.(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Writes, in `directory` (the server's, never the workspace's; made empty by the caller and never made here, so that a
 * snapshot root removed by a shutdown meanwhile is not made again and left behind), the git directory git is pointed at for one request
 * (`--git-dir`): `config` is `configuration` (see `snapshotConfiguration`), `HEAD` is `head`, and the rest are links
 * to the repository's refs, objects and index. The agent may rewrite the repository's configuration at any time;
 * git never reads it here, so nothing it adds there while a request runs is seen.
 */
export async function writeGitDirectorySnapshot(
  directory: string,
  options: { location: GitDirectoryLocation; configuration: string; head: string },
): Promise<void> {
  await writeFile(join(directory, 'config'), options.configuration, { mode: 0o400 });
  await writeFile(join(directory, 'HEAD'), `${options.head}\n`, { mode: 0o400 });
  for (const entry of SNAPSHOT_COMMON_ENTRIES) {
    await symlink(join(options.location.commonDirectory, entry), join(directory, entry));
  }
  const own = await readdir(options.location.gitDirectory).catch(() => []);
  for (const entry of [...OWN_ENTRIES, ...own.filter((name) => SHARED_INDEX.test(name))]) {
    await symlink(join(options.location.gitDirectory, entry), join(directory, entry));
  }
}
