import {
  type AnyEvent,
  applyCondensation,
  isLLMConvertibleEvent,
  isTreeArtifactKind,
  type LLMConvertibleEvent,
  ROOT_PARENT_ID,
  View,
} from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import type { ConversationState } from '../../state/conversation-state.js';
import { rememberNamed } from './build-view-checkpoint.js';
import { VIEW_CHECKPOINT_FILE, type ViewCheckpoint, viewCheckpointSchema } from './view-checkpoint-file.js';

/** Events after the checkpoint it still applies instead of rebuilding (normally the few of one send). */
const MAX_TAIL = 512;

/**
 * The View of `state` restored from `<directory>/x_view_checkpoint.json`: the events it names (read by
 * index, so only the view's own events are read) and then the events appended after it, which must
 * continue its branch. Undefined, so that the caller rebuilds the view from the log, whenever the file
 * is missing, unreadable, or does not match the log and the state (another log, another HEAD, a branch
 * switch after it, a long tail): the event files always win.
 */
export async function restoreView(options: {
  store: FileStore;
  directory: string;
  log: EventLogLike;
  state: ConversationState;
}): Promise<View | undefined> {
  const { store, directory, log, state } = options;
  const checkpoint = await readCheckpoint(store, `${directory}/${VIEW_CHECKPOINT_FILE}`);
  if (checkpoint === undefined) return undefined;
  const count = checkpoint.event_count;
  const end = state.event_count;
  if (count > end || end > log.length || end - count > MAX_TAIL) return undefined;
  if ((count === 0 ? null : log.idAt(count - 1)) !== checkpoint.last_event_id) return undefined;
  try {
    const events = await readEntries(log, checkpoint);
    if (events === undefined) return undefined;
    const view = View.restore(events, checkpoint.unhandled_condensation_request);
    // The next checkpoint of this view names only the events appended from here on.
    const lastEntry = checkpoint.entries.at(-1);
    const lastIndex = Array.isArray(lastEntry) ? lastEntry[1] - 1 : -1;
    rememberNamed(view.foldedEvents, log, { length: events.length, lastIndex, entries: checkpoint.entries });
    let head = checkpoint.head_is_empty ? undefined : (checkpoint.leaf_event_id ?? undefined);
    for (const event of await log.range(count, end)) {
      if (!continuesBranch(event, head)) return undefined;
      // An action in the tail may repeat the response id of a batch a condensation forgot before the checkpoint
      // (the reference continuing with a model that reuses ids): the rebuild drops it (BatchAtomicity), and the
      // view's events alone cannot tell. A tail with actions (a foreign writer, a crash mid-run) is rebuilt.
      if (event.kind === 'ActionEvent') return undefined;
      if (isOnBranch(event)) view.append(event);
      if (event.kind !== 'ConversationStateUpdateEvent') head = event.id;
    }
    const expected = state.head_is_empty ? undefined : state.leaf_event_id;
    return head === expected ? view : undefined;
  } catch {
    // An unreadable or corrupt event: the full rebuild reports it the way it always has.
    return undefined;
  }
}

async function readCheckpoint(store: FileStore, path: string): Promise<ViewCheckpoint | undefined> {
  let text: string;
  try {
    text = await store.read(path);
  } catch {
    return undefined;
  }
  try {
    const parsed = viewCheckpointSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Entries whose runs lie at most this many indices apart are read with one `range` (the control events
 * between them, a stats update after each step, are read and dropped): a long uncondensed view is one
 * run per step, and reading each on its own would read every event file alone instead of from packs.
 */
const MAX_GAP = 64;

/** The view's events in order, or undefined when an entry does not name what it should. */
async function readEntries(log: EventLogLike, checkpoint: ViewCheckpoint): Promise<LLMConvertibleEvent[] | undefined> {
  const groups = groupEntries(checkpoint);
  if (groups === undefined) return undefined;
  const parts = await Promise.all(
    groups.map(async (group): Promise<LLMConvertibleEvent[] | undefined> => {
      if (!Array.isArray(group)) {
        const condensation = await log.get(group.summary_of);
        if (condensation.kind !== 'Condensation' || condensation.summary === undefined) return undefined;
        return applyCondensation([], { ...condensation, summary_offset: 0 });
      }
      const first = group[0]![0];
      // Up to the checkpoint's end when that is near (the stats update after the last step), so that the
      // packed read cache can be written for the log's last chunk, which needs every event of it.
      const last = group.at(-1)![1];
      const end = checkpoint.event_count - last <= MAX_GAP ? checkpoint.event_count : last;
      const events: LLMConvertibleEvent[] = [];
      let run = 0;
      let index = first;
      // Read in pieces aligned on the log's pack chunks (each pack still written from one read), so only one
      // piece of events the view drops (a stats update after every step) is held at a time: one range over a
      // long uncondensed view held the whole log.
      for (let from = first; from < end; ) {
        const to = Math.min(end, (Math.floor(from / READ_PIECE) + 1) * READ_PIECE);
        const span = await log.range(from, to);
        for (; run < group.length; run++) {
          const [start, stop] = group[run]!;
          index = Math.max(index, start);
          for (; index < stop && index < to; index++) {
            const event = span[index - from]!;
            if (!isViewEvent(event)) return undefined;
            events.push(event as LLMConvertibleEvent);
          }
          if (index < stop) break;
        }
        from = to;
      }
      return events;
    }),
  );
  if (parts.some((part) => part === undefined)) return undefined;
  // One group is the usual case (an uncondensed view: one run per step, all close together); `flat()` copied its
  // 66.7k events one by one through the generic path (~7 ms), and `View.restore` copies them anyway.
  if (parts.length === 1) return parts[0]!;
  return (parts as LLMConvertibleEvent[][]).flat();
}

/** Events per read of a group: the store's pack chunk (PACK_CHUNK in @x/store), so reads stay aligned on packs. */
const READ_PIECE = 1024;

type Run = readonly [number, number];

/**
 * The entries in view order, runs that follow each other closely (`MAX_GAP`) grouped to be read as one
 * span; undefined when an entry names an index outside the checkpoint.
 */
function groupEntries(checkpoint: ViewCheckpoint): (Run[] | { summary_of: number })[] | undefined {
  const groups: (Run[] | { summary_of: number })[] = [];
  for (const entry of checkpoint.entries) {
    if (!Array.isArray(entry)) {
      if (entry.summary_of >= checkpoint.event_count) return undefined;
      groups.push(entry);
      continue;
    }
    const [start, stop] = entry;
    if (stop <= start || stop > checkpoint.event_count) return undefined;
    const last = groups.at(-1);
    const previous = Array.isArray(last) ? last.at(-1) : undefined;
    if (Array.isArray(last) && previous !== undefined && start >= previous[1] && start - previous[1] <= MAX_GAP) {
      last.push([start, stop]);
    } else {
      groups.push([[start, stop]]);
    }
  }
  return groups;
}

/** What `View.append` keeps: LLM-convertible events, and custom kinds that carry an LLM message. */
function isViewEvent(event: AnyEvent): boolean {
  return isLLMConvertibleEvent(event) || (event as { llm_message?: unknown }).llm_message !== undefined;
}

/**
 * Whether `event` is on the branch it was appended to, as `View.fromEvents(branch)` sees it: a state update
 * stamped with a parent is no tree node (nothing follows it), so it must not end a tool loop of the view.
 */
export function isOnBranch(event: AnyEvent): boolean {
  return !(isTreeArtifactKind(event.kind) && event.parent_id !== undefined);
}

/** Whether `event`, appended with HEAD at `head`, extends that branch (the conversation's rule). */
function continuesBranch(event: AnyEvent, head: string | undefined): boolean {
  if (event.kind === 'ConversationStateUpdateEvent' || event.parent_id === undefined) return true;
  return (event.parent_id === ROOT_PARENT_ID ? undefined : event.parent_id) === head;
}
