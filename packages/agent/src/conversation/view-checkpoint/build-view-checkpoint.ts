import type { View } from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import type { ConversationState } from '../../state/conversation-state.js';
import { VIEW_CHECKPOINT_FILE, type ViewCheckpoint } from './view-checkpoint-file.js';

const SUMMARY_SUFFIX = '-summary';
/** How far past the previous view event the next one is looked for by position. */
const NEAR = 16;

/**
 * The checkpoint of `view`, which must be the view of `state` (the same events applied). Undefined
 * when an event of the view cannot be named by its log index (then no checkpoint is written and a
 * resume rebuilds the view from the log, as without one).
 */
export function buildViewCheckpoint(
  view: View,
  state: ConversationState,
  log: EventLogLike,
): ViewCheckpoint | undefined {
  const count = state.event_count;
  if (count > log.length) return undefined;
  const entries: ViewCheckpoint['entries'] = [];
  let run: [number, number] | undefined;
  // View events sit a few log indices apart (control events between them): `idAt` finds the next one
  // near the last without a lookup by id (which, on a freshly opened long log, scans every name).
  let last = -1;
  const indexOf = (id: string): number => {
    for (let index = last + 1; index < log.length && index <= last + NEAR; index++) {
      if (log.idAt(index) === id) {
        last = index;
        return index;
      }
    }
    const index = log.indexOf(id);
    if (index >= 0) last = index;
    return index;
  };
  for (const event of view.events) {
    if (event.kind === 'CondensationSummaryEvent') {
      if (!event.id.endsWith(SUMMARY_SUFFIX)) return undefined;
      const index = log.indexOf(event.id.slice(0, -SUMMARY_SUFFIX.length));
      if (index < 0 || index >= count) return undefined;
      run = undefined;
      entries.push({ summary_of: index });
      continue;
    }
    const index = indexOf(event.id);
    if (index < 0 || index >= count) return undefined;
    if (run !== undefined && run[1] === index) run[1] = index + 1;
    else {
      run = [index, index + 1];
      entries.push(run);
    }
  }
  return {
    version: 1,
    event_count: count,
    last_event_id: count === 0 ? null : log.idAt(count - 1),
    leaf_event_id: state.leaf_event_id ?? null,
    head_is_empty: state.head_is_empty ?? false,
    unhandled_condensation_request: view.unhandledCondensationRequest,
    entries,
  };
}

/**
 * Writes (or, when the view cannot be checkpointed, removes) the view checkpoint next to
 * base_state.json. Nothing is written while the view has not been built: an older file then stays, and
 * `restoreView` checks it against the log before using it.
 */
export async function writeViewCheckpoint(
  store: FileStore,
  directory: string,
  view: View | undefined,
  state: ConversationState,
  log: EventLogLike,
): Promise<void> {
  if (view === undefined) return;
  const path = `${directory}/${VIEW_CHECKPOINT_FILE}`;
  const checkpoint = buildViewCheckpoint(view, state, log);
  if (checkpoint === undefined) await store.delete(path).catch(() => undefined);
  else await store.write(path, JSON.stringify(checkpoint));
}
