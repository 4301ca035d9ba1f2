import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openVerifiedDirectory, type VerifiedDirectory } from './verified-directory.js';
import type { WorkspaceDirectory } from './workspace-directory.js';

/** One regular file met by `walkWorkspaceFiles`, with its directory still open. */
export interface WalkedFile {
  /** The file's directory, verified to lie inside the workspace (read the file through it). */
  directory: VerifiedDirectory;
  name: string;
  /** Path relative to the searched directory, `/`-separated. */
  relative: string;
  /** Last modification, in milliseconds. */
  mtimeMs: number;
}

/** Entries a walk leaves out (ignore files): asked about each entry, told each directory's names first. */
export interface WalkIgnore {
  /** Called with each directory and all its entry names (hidden ones too) before any entry is looked at. */
  enter(directory: VerifiedDirectory, prefix: string, names: readonly string[]): Promise<void>;
  /** Whether an entry (its path relative to the searched directory) is left out; a directory is not walked. */
  ignored(relative: string, isDirectory: boolean): boolean;
}

export interface WalkOptions {
  /** Stop after this many directory entries (files and directories) have been looked at. */
  maxEntries: number;
  /** Entries to leave out besides hidden ones. */
  ignore?: WalkIgnore;
  /** Called for each file; returning `false` stops the walk. */
  visit(file: WalkedFile): Promise<boolean | undefined> | boolean | undefined;
}

/** How a walk ended. */
export interface WalkResult {
  /** The walk stopped at `maxEntries` before it saw everything. */
  incomplete: boolean;
}

/**
 * Walks the regular files below a workspace directory, depth first, names sorted. Every directory is opened
 * without following a final link and verified to lie inside the workspace before it is listed (a directory swapped
 * for a link to the outside mid-walk fails that check); symbolic links are never followed, and hidden entries
 * (names starting with `.`) are skipped, as ripgrep does by default. Entries that vanish or cannot be read on the
 * way are skipped.
 */
export async function walkWorkspaceFiles(start: WorkspaceDirectory, options: WalkOptions): Promise<WalkResult> {
  let seen = 0;
  let stopped = false;
  let incomplete = false;

  const walk = async (real: string, prefix: string, shown: string): Promise<void> => {
    const directory = await openVerifiedDirectory(start.realRoot, real, shown);
    const subdirectories: string[] = [];
    try {
      const entries = await readdir(directory.base, { withFileTypes: true });
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      await options.ignore?.enter(
        directory,
        prefix,
        entries.map((entry) => entry.name),
      );
      for (const entry of entries) {
        if (stopped) return;
        if (entry.name.startsWith('.')) continue;
        if (options.ignore?.ignored(`${prefix}${entry.name}`, entry.isDirectory())) continue;
        if (seen >= options.maxEntries) {
          incomplete = true;
          stopped = true;
          return;
        }
        seen += 1;
        if (entry.isDirectory()) subdirectories.push(entry.name);
        if (!entry.isFile()) continue;
        const info = await lstat(join(directory.base, entry.name)).catch(() => undefined);
        if (info === undefined || !info.isFile()) continue;
        const keepGoing = await options.visit({
          directory,
          name: entry.name,
          relative: `${prefix}${entry.name}`,
          mtimeMs: info.mtimeMs,
        });
        if (keepGoing === false) stopped = true;
      }
    } finally {
      await directory.close();
    }
    for (const name of subdirectories) {
      if (stopped) return;
      await walk(join(real, name), `${prefix}${name}/`, join(shown, name)).catch((error: unknown) => {
        // A directory removed or replaced since it was listed is skipped; anything else is a real failure.
        const code = (error as { problem?: string; code?: string }).problem ?? (error as { code?: string }).code;
        if (code !== 'missing' && code !== 'link' && code !== 'not_regular' && code !== 'EACCES') throw error;
      });
    }
  };

  await walk(start.real, '', start.path);
  return { incomplete };
}
