import { type AnyEvent, ROOT_PARENT_ID } from '@x/events';
import { CorruptEventError, type EventLogLike } from '@x/store';
import { treeOf } from '../state/fold-branch.js';
import { readableEvents, warnDamagedEvent } from './readable-events.js';

/** Every event of the log, `undefined` for a corrupt file. */
export async function readAllEvents(log: EventLogLike): Promise<(AnyEvent | undefined)[]> {
  const events: (AnyEvent | undefined)[] = [];
  for await (const event of readableEvents(log, 0)) events.push(event);
  return events;
}

/** The whole log, its tree, and the events on the branch ending at `leaf` (root first). */
export async function readBranch(log: EventLogLike, leaf: string | undefined, headIsEmpty: boolean) {
  const events = await readAllEvents(log);
  const tree = treeOf(events, (index) => log.idAt(index));
  const resolved = tree.activeLeaf(leaf, headIsEmpty);
  const known = resolved === undefined || tree.has(resolved);
  const branch = (known ? tree.pathToRoot(resolved) : events.map((_, index) => index))
    .map((index) => events[index])
    .filter((event): event is AnyEvent => event !== undefined);
  return { events, tree, branch };
}

/**
 * The last `limit` events of the branch ending at `leaf`, read by walking parents back from it: O(limit)
 * reads however long the log is (stuck detection needs the recent active branch only). Stops at a
 * corrupt file.
 */
export async function recentBranch(log: EventLogLike, leaf: string | undefined, limit: number): Promise<AnyEvent[]> {
  const recent: AnyEvent[] = [];
  let id = leaf;
  // Where the next event is expected: its parent is almost always the event just before it (and the
  // first one is near the end), which `idAt` confirms without a lookup by id (see `findNear`).
  let guess = log.length - 1;
  while (id !== undefined && recent.length < limit) {
    let index: number;
    let event: AnyEvent;
    index = findNear(log, id, guess);
    if (index < 0) break;
    try {
      event = await log.get(index);
    } catch (error) {
      if (!CorruptEventError.isInstance(error)) throw error;
      warnDamagedEvent(index, error);
      break;
    }
    recent.push(event);
    if (event.parent_id === ROOT_PARENT_ID) break;
    id = event.parent_id ?? (index > 0 ? log.idAt(index - 1) : undefined);
    guess = index - 1;
  }
  return recent.reverse();
}

/**
 * The index of `id`, looked for first at `guess` and the few indices below it (`idAt`, no I/O), then by
 * `indexOf`, which on a freshly opened long log scans every name.
 */
function findNear(log: EventLogLike, id: string, guess: number): number {
  for (let index = Math.min(guess, log.length - 1); index >= 0 && index > guess - NEAR; index--) {
    if (log.idAt(index) === id) return index;
  }
  return log.indexOf(id);
}

const NEAR = 64;

/** Whether `event`, appended with HEAD at `head`, extends the active branch (state updates never leave it). */
export function continuesBranch(event: AnyEvent, head: string | undefined): boolean {
  if (event.kind === 'ConversationStateUpdateEvent' || event.parent_id === undefined) return true;
  return (event.parent_id === ROOT_PARENT_ID ? undefined : event.parent_id) === head;
}
