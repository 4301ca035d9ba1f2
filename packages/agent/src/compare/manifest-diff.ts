import type { CheckpointManifest } from '../checkpoints/checkpoint-manifest.js';

/** Files that differ between two workspace checkpoints, by path (sorted). */
export interface FileChanges {
  added: string[];
  modified: string[];
  removed: string[];
}

/** What changed from `before` to `after` (an absent `before` is an empty workspace). */
export function diffManifests(
  before: CheckpointManifest | undefined,
  after: CheckpointManifest | undefined,
): FileChanges {
  const from = entries(before);
  const to = entries(after);
  const changes: FileChanges = { added: [], modified: [], removed: [] };
  for (const [path, content] of to) {
    const previous = from.get(path);
    if (previous === undefined) changes.added.push(path);
    else if (previous !== content) changes.modified.push(path);
  }
  for (const path of from.keys()) if (!to.has(path)) changes.removed.push(path);
  for (const list of Object.values(changes)) list.sort();
  return changes;
}

/** Each path's content key: a file's hash and mode, or a link's target. */
function entries(manifest: CheckpointManifest | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const file of manifest?.files ?? []) map.set(file.path, `${file.sha256}:${file.mode}`);
  for (const link of manifest?.symlinks ?? []) map.set(link.path, `->${link.target}`);
  return map;
}
