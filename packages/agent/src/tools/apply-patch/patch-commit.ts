import { z } from 'zod';
import { type ParsedPatch, updatedContent } from './parse-patch.js';

/** One file's change, as the reference's `FileChange` (a field without a value is left out, as it writes them). */
export const fileChangeSchema = z.object({
  type: z.enum(['add', 'delete', 'update']),
  old_content: z.string().optional(),
  new_content: z.string().optional(),
  move_path: z.string().optional(),
});
export type FileChange = z.infer<typeof fileChangeSchema>;

/** The reference's `Commit`: path → change, the `commit` field of an ApplyPatchObservation. */
export const patchCommitSchema = z.object({ changes: z.record(z.string(), fileChangeSchema) });
export type PatchCommit = z.infer<typeof patchCommitSchema>;

/** What applying the patch writes (the reference's `patch_to_commit`). */
export function patchToCommit(patch: ParsedPatch, current: ReadonlyMap<string, string>): PatchCommit {
  const changes: Record<string, FileChange> = {};
  for (const [path, action] of patch.actions) {
    const old = current.get(path);
    if (action.type === 'delete') {
      changes[path] = { type: 'delete', ...(old === undefined ? {} : { old_content: old }) };
    } else if (action.type === 'add') {
      changes[path] = { type: 'add', new_content: action.newFile ?? '' };
    } else {
      changes[path] = {
        type: 'update',
        ...(old === undefined ? {} : { old_content: old }),
        new_content: updatedContent(old ?? '', action, path),
        ...(action.movePath === undefined ? {} : { move_path: action.movePath }),
      };
    }
  }
  return { changes };
}

/** Every path the commit writes or removes, in the order it does so. */
export function commitPaths(commit: PatchCommit): string[] {
  return Object.entries(commit.changes).flatMap(([path, change]) =>
    change.move_path === undefined ? [path] : [change.move_path, path],
  );
}
