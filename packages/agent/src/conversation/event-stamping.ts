import { type AnyEvent, parentForAppend, withParent } from '@x/events';
import type { EventLogLike } from '@x/store';
import { readBranch } from './branch-history.js';

/** Where HEAD is, as the fold has it. */
export interface HeadSource {
  readonly leafEventId: string | undefined;
  readonly state: { readonly head_is_empty: boolean };
}

/** HEAD, the parent of the next tree event (undefined when the branch is empty). */
export async function headForAppend(log: EventLogLike, fold: HeadSource): Promise<string | undefined> {
  const leaf = fold.leafEventId;
  if (leaf !== undefined || fold.state.head_is_empty || log.length === 0) return leaf;
  // A checkpoint written before HEAD was tracked: the legacy HEAD is the last tree event of the log.
  const { tree } = await readBranch(log, undefined, false);
  return tree.activeLeaf(undefined);
}

/** The event with `parent_id` set to HEAD (reference `_stamp_parent_id`): every event x appends has one. */
export async function stampParent(log: EventLogLike, fold: HeadSource, event: AnyEvent): Promise<AnyEvent> {
  if (event.parent_id !== undefined) return event;
  const parent = parentForAppend(await headForAppend(log, fold), log.length);
  return parent === undefined ? event : withParent(event, parent);
}
