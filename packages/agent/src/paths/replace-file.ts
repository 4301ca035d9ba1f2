import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, lstat, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { entryKind } from './regular-file.js';
import type { VerifiedDirectory } from './verified-directory.js';
import { WorkspacePathError } from './workspace-path-error.js';

/** The new content: text, bytes, or a writer that fills the (new, empty) file and may throw to give up. */
export type FileContent = string | Uint8Array | ((handle: FileHandle) => Promise<void>);

/**
 * Replaces (or creates, with `exclusive`) a file of a verified directory: the content goes to a new temporary file
 * in that directory (short random name, O_EXCL | O_NOFOLLOW), which is then renamed over the name. The old inode is
 * never opened for writing, so a hard link to a file outside the workspace is replaced, not written through;
 * concurrent writers each rename a whole file (the last one wins) and a reader never sees half of one. A FIFO,
 * socket, device or directory in the place of the file is refused. The temporary file is removed on failure.
 */
export async function replaceFileAtomically(
  directory: VerifiedDirectory,
  name: string,
  content: FileContent,
  options: { exclusive: boolean; shown: string },
): Promise<void> {
  const target = join(directory.base, name);
  let mode = 0o644;
  const kind = await entryKind(directory, name);
  if (kind === 'file') {
    if (options.exclusive) {
      throw new WorkspacePathError(options.shown, 'the file already exists', { problem: 'exists' });
    }
    mode = (await lstat(target)).mode & 0o7777;
  } else if (kind === 'directory') {
    throw new WorkspacePathError(options.shown, 'it is a directory, not a file', { problem: 'directory' });
  } else if (kind !== 'missing') {
    throw new WorkspacePathError(options.shown, `it is ${kind.other}, not a regular file`, {
      problem: kind.other === 'a symbolic link' ? 'link' : 'not_regular',
    });
  }
  // Short and fixed-length: a name near the 255-byte limit still leaves room for the temporary one.
  const temporary = join(directory.base, `.x-tmp-${randomBytes(8).toString('hex')}`);
  const handle = await open(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode,
  );
  try {
    try {
      if (typeof content === 'function') await content(handle);
      else await handle.writeFile(content);
      await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    if (options.exclusive && (await entryKind(directory, name)) !== 'missing') {
      throw new WorkspacePathError(options.shown, 'the file already exists', { problem: 'exists' });
    }
    await rename(temporary, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EISDIR' || error.code === 'ENOTEMPTY' || error.code === 'EEXIST') {
        throw new WorkspacePathError(options.shown, 'it became a directory', { cause: error, problem: 'directory' });
      }
      throw error;
    });
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
