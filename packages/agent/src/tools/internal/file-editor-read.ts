import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegularFile, type VerifiedDirectory, WorkspacePathError } from '../../paths/index.js';
import { type EditorOutcome, type EditorTarget, fail } from './file-editor-outcome.js';
import { binaryFileText, notUtf8Text, tooLargeText } from './file-editor-texts.js';

/** How much of a file's start is looked at for a NUL byte, as the reference's `is_binary` reads 1024 bytes. */
const binarySniffBytes = 1024;

/**
 * The first NUL byte within the first 1024 bytes marks a file as binary: the reference's check (`binaryornot`)
 * refuses such files, except text in an encoding with NUL bytes (UTF-16), which this editor cannot read either.
 */
function looksBinary(text: string): boolean {
  const nul = text.indexOf('\0');
  return nul !== -1 && Buffer.byteLength(text.slice(0, nul)) < binarySniffBytes;
}

/**
 * Reads a regular file for the editor, or the reference's `validate_file` error that stops the command: a file over
 * the size limit, or one that looks binary. For an edit (`forEdit`), a file that is not UTF-8 is refused too: read as
 * U+FFFD, its undecodable bytes would be written back as U+FFFD and lost (the reference detects the encoding).
 */
export async function readEditorFile(
  dir: VerifiedDirectory,
  name: string,
  target: EditorTarget,
  options: { forEdit?: boolean } = {},
): Promise<string | EditorOutcome> {
  let text: string;
  try {
    text = await readRegularFile(dir, name, { shown: target.requested, maxBytes: target.maxFileBytes });
  } catch (error) {
    if (!WorkspacePathError.isInstance(error) || error.problem !== 'too_large') throw error;
    const { size } = await lstat(join(dir.base, name));
    return fail(tooLargeText(target.path, size, target.maxFileBytes));
  }
  if (looksBinary(text)) return fail(binaryFileText(target.path));
  // A U+FFFD may be the file's own or an undecodable byte: only then is the file read again, strictly.
  if (options.forEdit === true && text.includes('\uFFFD')) {
    try {
      return await readRegularFile(dir, name, {
        shown: target.requested,
        maxBytes: target.maxFileBytes,
        strictUtf8: true,
      });
    } catch (error) {
      if (WorkspacePathError.isInstance(error) && error.problem === 'not_utf8') return fail(notUtf8Text(target.path));
      throw error;
    }
  }
  return text;
}
