import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isPathInside } from '@x/agent';
import { WorkingDirMissingError } from './working-dir-missing-error.js';

/** A conversation's working directory, as the file routes check it. */
export interface ConversationWorkingDir {
  conversationId: string;
  workingDir: string;
}

/**
 * Refuses (`WorkingDirMissingError`, 404) a path inside the working directory of a conversation when that directory
 * is gone from disk. Of nested working directories the innermost counts. A path in no conversation's working
 * directory passes: the upload makes its missing parents, as the reference's does.
 */
export async function refuseMissingWorkingDir(
  workingDirs: readonly ConversationWorkingDir[],
  path: string,
): Promise<void> {
  const target = resolve(path);
  const holding = workingDirs
    .filter(({ workingDir }) => isPathInside(workingDir, target))
    .sort((one, other) => other.workingDir.length - one.workingDir.length)[0];
  if (holding === undefined) return;
  const present = await lstat(holding.workingDir).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
  );
  if (!present) throw new WorkingDirMissingError(holding);
}
