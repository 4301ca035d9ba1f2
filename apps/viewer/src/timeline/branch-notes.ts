import type { EventJson } from '../api/types.js';

/**
 * Where the conversation tree branches (§7.7) among the loaded events: an event whose parent has other
 * children (a fork or a navigation made a sibling branch), or an explicit new root. Events without a
 * `parent_id` follow the previous event (the legacy linear chain) and never branch.
 */
export function branchNotes(events: readonly EventJson[]): Map<string, string> {
  const children = new Map<string, string[]>();
  for (const event of events) {
    const parent = typeof event.parent_id === 'string' ? event.parent_id : undefined;
    if (parent === undefined || parent === '__root__') continue;
    const list = children.get(parent) ?? [];
    list.push(event.id);
    children.set(parent, list);
  }
  const notes = new Map<string, string>();
  for (const event of events) {
    if (event.parent_id === '__root__') notes.set(event.id, 'new root');
  }
  for (const [parent, ids] of children) {
    if (ids.length < 2) continue;
    ids.forEach((id, index) => {
      notes.set(id, `branch ${index + 1} of ${ids.length} from ${parent.slice(0, 8)}`);
    });
  }
  return notes;
}
