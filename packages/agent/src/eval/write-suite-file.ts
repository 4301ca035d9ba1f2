import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a suite file whole or not at all: the text goes to a new file beside it, flushed to disk, then renamed over
 * it, so a crash (or a full disk) mid-write leaves the old suite, and a reader sees the old file or the new one, never
 * half of one. A symbolic link to the suite stays a link (its target is replaced); the file keeps its mode.
 */
export async function writeSuiteFile(path: string, text: string): Promise<void> {
  const target = await realpath(path).catch(() => path);
  const mode = await stat(target).then(
    (info) => info.mode & 0o7777,
    () => 0o644,
  );
  const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    try {
      await handle.writeFile(text);
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
