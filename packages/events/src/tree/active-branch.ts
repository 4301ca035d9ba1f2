import type { AnyEvent } from '../schemas/events.js';
import { EventTree } from './event-tree.js';

/**
 * The events of a whole log that lie on the active branch (reference `active_branch`), root first:
 * the path from the leaf to the root, where the leaf is `leafEventId`, none when `headIsEmpty`, else
 * the legacy fallback (last event that is not a state update or conversation error). A linear log
 * without `parent_id` gives all its events except trailing artifacts. Feed it to `View.fromEvents` to
 * see what the LLM sees on that branch. O(n) in the log: use `EventTree` to keep it incremental.
 */
export function activeBranch(
  events: readonly AnyEvent[],
  options: { leafEventId?: string | undefined; headIsEmpty?: boolean } = {},
): AnyEvent[] {
  const tree = EventTree.from(events);
  const leaf = tree.activeLeaf(options.leafEventId, options.headIsEmpty ?? false);
  return tree.pathToRoot(leaf).map((index) => events[index] as AnyEvent);
}
