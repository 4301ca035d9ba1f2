import { type AnyEvent, EventTree } from '@x/events';
import { applyEvent } from './apply-event.js';
import { type ConversationState, initialConversationState } from './conversation-state.js';

/** The fields of the state that depend on which branch of the conversation tree is active. */
const branchFields = ['pending_actions', 'last_user_message_id', 'last_llm_response_id', 'task_list'] as const;

/**
 * The state with HEAD at `leaf` (reference `navigate_to`, §7.7). Status, policy, stats, limits and
 * blocked maps are conversation-wide (moving HEAD does not change them, as in the reference) and come
 * from `current`; what depends on the branch (pending actions, last user message, last response)
 * is the fold of the events on the path from the root to `leaf` only. O(n) in the log: used when HEAD
 * moves or a log is opened that is not linear, never per step.
 */
export function foldBranch(
  current: ConversationState,
  events: readonly (AnyEvent | undefined)[],
  tree: EventTree,
  leaf: string | undefined,
  headIsEmpty: boolean,
): ConversationState {
  let branch = initialConversationState({ id: current.id });
  for (const index of tree.pathToRoot(leaf)) {
    const event = events[index];
    if (event !== undefined) branch = applyEvent(branch, event);
  }
  const next: ConversationState = { ...current, head_is_empty: headIsEmpty };
  if (leaf === undefined) delete next.leaf_event_id;
  else next.leaf_event_id = leaf;
  const target = next as Record<string, unknown>;
  for (const field of branchFields) {
    if (branch[field] === undefined) delete target[field];
    else target[field] = branch[field];
  }
  return next;
}

/** The tree of a log read in full; unreadable (corrupt) slots are linked to their neighbour by id. */
export function treeOf(events: readonly (AnyEvent | undefined)[], idAt: (index: number) => string): EventTree {
  const tree = new EventTree();
  events.forEach((event, index) => {
    if (event === undefined) tree.addUnreadable(idAt(index));
    else tree.add(event);
  });
  return tree;
}
