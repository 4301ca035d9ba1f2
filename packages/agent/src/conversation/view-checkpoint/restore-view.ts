import {
  type AnyEvent,
  applyCondensation,
  isLLMConvertibleEvent,
  type LLMConvertibleEvent,
  ROOT_PARENT_ID,
  View,
} from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import type { ConversationState } from '../../state/conversation-state.js';
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
    let head = checkpoint.head_is_empty ? undefined : (checkpoint.leaf_event_id ?? undefined);
    for (const event of await log.range(count, end)) {
      if (!continuesBranch(event, head)) return undefined;
      view.append(event);
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

/** The view's events in order, or undefined when an entry does not name what it should. */
async function readEntries(log: EventLogLike, checkpoint: ViewCheckpoint): Promise<LLMConvertibleEvent[] | undefined> {
  const parts = await Promise.all(
    checkpoint.entries.map(async (entry): Promise<LLMConvertibleEvent[] | undefined> => {
      if (Array.isArray(entry)) {
        const [start, stop] = entry;
        if (stop <= start || stop > checkpoint.event_count) return undefined;
        const events = await log.range(start, stop);
        return events.every(isViewEvent) ? (events as LLMConvertibleEvent[]) : undefined;
      }
      if (entry.summary_of >= checkpoint.event_count) return undefined;
      const condensation = await log.get(entry.summary_of);
      if (condensation.kind !== 'Condensation' || condensation.summary === undefined) return undefined;
      return applyCondensation([], { ...condensation, summary_offset: 0 });
    }),
  );
  if (parts.some((part) => part === undefined)) return undefined;
  return (parts as LLMConvertibleEvent[][]).flat();
}

/** What `View.append` keeps: LLM-convertible events, and custom kinds that carry an LLM message. */
function isViewEvent(event: AnyEvent): boolean {
  return isLLMConvertibleEvent(event) || (event as { llm_message?: unknown }).llm_message !== undefined;
}

/** Whether `event`, appended with HEAD at `head`, extends that branch (the conversation's rule). */
function continuesBranch(event: AnyEvent, head: string | undefined): boolean {
  if (event.kind === 'ConversationStateUpdateEvent' || event.parent_id === undefined) return true;
  return (event.parent_id === ROOT_PARENT_ID ? undefined : event.parent_id) === head;
}
