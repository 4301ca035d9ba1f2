import { posix } from 'node:path';
import { z } from 'zod';
import { type Scorer, verdict } from './scorer.js';

export const filesWithinConfigSchema = z.strictObject({
  type: z.literal('files-within'),
  /** Workspace-relative files or directories (a directory allows everything under it). */
  paths: z.array(z.string().min(1)).min(1),
});
export type FilesWithinConfig = z.infer<typeof filesWithinConfigSchema>;

function inside(file: string, allowed: string): boolean {
  const normalizedFile = posix.normalize(file);
  const normalizedAllowed = posix.normalize(allowed).replace(/\/$/, '');
  // `..notes` is a file of the workspace; only `..` itself and what is under it lie above.
  if (normalizedAllowed === '.') {
    return normalizedFile !== '..' && !normalizedFile.startsWith('../') && !posix.isAbsolute(normalizedFile);
  }
  return normalizedFile === normalizedAllowed || normalizedFile.startsWith(`${normalizedAllowed}/`);
}

/**
 * Passes when every file the agent wrote through a tool's `path` argument (the file editor's create, replace,
 * insert...) lies within `paths`. Files a terminal command writes are not seen: the command line is not parsed.
 */
export function filesWithin(paths: readonly string[]): Scorer {
  return {
    name: 'files-within',
    async score(run) {
      const outside = run.filesWritten.filter((file) => !paths.some((allowed) => inside(file, allowed)));
      return verdict(
        'files-within',
        outside.length === 0,
        outside.length === 0
          ? `${run.filesWritten.length} file(s) written, all within ${paths.join(', ')}`
          : `written outside ${paths.join(', ')}: ${outside.join(', ')}`,
      );
    },
  };
}
