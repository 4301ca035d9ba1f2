import { z } from 'zod';
import { type ParsedPatch, updatedContent } from './parse-patch.js';

/** One file's change, as the reference's `FileChange` (every field written, `null` when absent). */
export const fileChangeSchema = z.object({
  type: z.enum(['add', 'delete', 'update']),
  old_content: z.string().nullable(),
  new_content: z.string().nullable(),
  move_path: z.string().nullable(),
});
export type FileChange = z.infer<typeof fileChangeSchema>;

/** The reference's `Commit`: path → change, the `commit` field of an ApplyPatchObservation. */
export const patchCommitSchema = z.object({ changes: z.record(z.string(), fileChangeSchema) });
export type PatchCommit = z.infer<typeof patchCommitSchema>;

/** What applying the patch writes (the reference's `patch_to_commit`). */
export function patchToCommit(patch: ParsedPatch, current: ReadonlyMap<string, string>): PatchCommit {
  const changes: Record<string, FileChange> = {};
  for (const [path, action] of patch.actions) {
    const old = current.get(path) ?? null;
    if (action.type === 'delete') {
      changes[path] = { type: 'delete', old_content: old, new_content: null, move_path: null };
    } else if (action.type === 'add') {
      changes[path] = { type: 'add', old_content: null, new_content: action.newFile ?? '', move_path: null };
    } else {
      changes[path] = {
        type: 'update',
        old_content: old,
        new_content: updatedContent(old ?? '', action, path),
        move_path: action.movePath ?? null,
      };
    }
  }
  return { changes };
}

/** Every path the commit writes or removes, in the order it does so. */
export function commitPaths(commit: PatchCommit): string[] {
  return Object.entries(commit.changes).flatMap(([path, change]) =>
    change.move_path === null ? [path] : [change.move_path, path],
  );
}
