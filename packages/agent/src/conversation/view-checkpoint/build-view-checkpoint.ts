import type { LLMConvertibleEvent, View } from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import type { ConversationState } from '../../state/conversation-state.js';
import { VIEW_CHECKPOINT_FILE, type ViewCheckpoint } from './view-checkpoint-file.js';

const SUMMARY_SUFFIX = '-summary';
/** How far past the previous view event the next one is looked for by position. */
const NEAR = 16;

/**
 * What the last checkpoint of a view's live events array named, so the next one names only the events
 * appended since (a View only pushes onto its array; anything else, a condensation or a repair, gives it a
 * new array): a long uncondensed view is not looked up event by event in the log at every checkpoint.
 */
interface Named {
  readonly log: EventLogLike;
  /** How many of the array's events `entries` name, and the last of them (checked on reuse). */
  readonly length: number;
  readonly lastEvent: LLMConvertibleEvent | undefined;
  /** Log index of that event (-1 for none). */
  readonly lastIndex: number;
  readonly entries: ViewCheckpoint['entries'];
  /**
   * The JSON text of `entries[0..textCount - 1]`, comma-separated: entries before the last are final, so the next
   * checkpoint of the array writes only the entries added since (writing the whole list every few steps made a
   * long view's checkpoints grow with the history).
   */
  readonly textCount: number;
  readonly text: string;
}

const named = new WeakMap<readonly LLMConvertibleEvent[], Named>();

/**
 * Records that `entries` name the first `length` events of `events` in `log` (a view restored from a
 * checkpoint, or checkpointed): the next `buildViewCheckpoint` of that array starts from there.
 */
export function rememberNamed(
  events: readonly LLMConvertibleEvent[],
  log: EventLogLike,
  named_: { length: number; lastIndex: number; entries: ViewCheckpoint['entries']; textCount?: number; text?: string },
): void {
  const { length, lastIndex, entries, textCount = 0, text = '' } = named_;
  named.set(events, { log, length, lastEvent: events[length - 1], lastIndex, entries, textCount, text });
}

/**
 * The checkpoint of `view`, which must be the view of `state` (the same events applied): its fold
 * (`View.foldedEvents`). Undefined when the view is not `restorable` or an event of it cannot be named by
 * its log index (then no checkpoint is written and a resume rebuilds the view from the log, as without one).
 */
export function buildViewCheckpoint(
  view: View,
  state: ConversationState,
  log: EventLogLike,
): ViewCheckpoint | undefined {
  return buildViewCheckpointText(view, state, log)?.checkpoint;
}

/** `buildViewCheckpoint` and the checkpoint's JSON text (`JSON.stringify(checkpoint)`, its entries' text reused). */
export function buildViewCheckpointText(
  view: View,
  state: ConversationState,
  log: EventLogLike,
): { checkpoint: ViewCheckpoint; text: string } | undefined {
  const count = state.event_count;
  // A view whose repair depends on events outside it (a batch or tool loop a condensation cut) is rebuilt
  // from the log on resume; any other is saved as its fold, so the restored view goes on like the live one.
  if (count > log.length || !view.restorable) return undefined;
  const events = view.foldedEvents;
  const known = reusable(named.get(events), events, log, count);
  // Runs before the last are final; the last may grow, so it is copied.
  const entries: ViewCheckpoint['entries'] = known === undefined ? [] : known.entries.slice();
  const tail = entries.at(-1);
  let run: [number, number] | undefined = Array.isArray(tail) ? [tail[0], tail[1]] : undefined;
  if (run !== undefined) entries[entries.length - 1] = run;
  // View events sit a few log indices apart (control events between them): `idAt` finds the next one
  // near the last without a lookup by id (which, on a freshly opened long log, scans every name).
  let last = known?.lastIndex ?? -1;
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
  for (let position = known?.length ?? 0; position < events.length; position++) {
    const event = events[position]!;
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
  // The final entries' text: what the last checkpoint wrote of them, and the ones that became final since.
  let text = known?.text ?? '';
  let textCount = known?.textCount ?? 0;
  for (; textCount < entries.length - 1; textCount++) {
    text += textCount === 0 ? JSON.stringify(entries[textCount]) : `,${JSON.stringify(entries[textCount])}`;
  }
  rememberNamed(events, log, { length: events.length, lastIndex: last, entries, textCount, text });
  const checkpoint: ViewCheckpoint = {
    version: 1,
    event_count: count,
    last_event_id: count === 0 ? null : log.idAt(count - 1),
    leaf_event_id: state.leaf_event_id ?? null,
    head_is_empty: state.head_is_empty ?? false,
    unhandled_condensation_request: view.unhandledCondensationRequest,
    entries,
  };
  const lastEntry = entries.length === 0 ? '' : JSON.stringify(entries[entries.length - 1]);
  // `entries` is the last field: the text of the rest ends with `[]}`, where the entries go.
  const head = JSON.stringify({ ...checkpoint, entries: [] });
  return { checkpoint, text: `${head.slice(0, -2)}${text}${textCount > 0 ? ',' : ''}${lastEntry}]}` };
}

/** `known` when it still names a prefix of `events` in `log` within the first `count` events. */
function reusable(
  known: Named | undefined,
  events: readonly LLMConvertibleEvent[],
  log: EventLogLike,
  count: number,
): Named | undefined {
  if (known === undefined || known.log !== log || known.length > events.length) return undefined;
  if (known.length === 0) return known;
  if (events[known.length - 1] !== known.lastEvent || known.lastIndex >= count) return undefined;
  const last = known.lastEvent!;
  // A summary's entry names its Condensation; any other event is at its own index.
  return last.kind === 'CondensationSummaryEvent' || log.idAt(known.lastIndex) === last.id ? known : undefined;
}

/**
 * Writes (or, when the view cannot be checkpointed, removes) the view checkpoint next to
 * base_state.json, without waiting for it to be durable (`writeRebuildable`). Nothing is written while the view has not been built: an older file then stays, and
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
  const built = buildViewCheckpointText(view, state, log);
  if (built === undefined) await store.delete(path).catch(() => undefined);
  // Without fsync where the store can: the file is derived and `restoreView` checks it against the log, so one
  // a power loss lost, emptied or cut short only makes the next open rebuild the view.
  else if (store.writeRebuildable !== undefined) await store.writeRebuildable([{ path, data: built.text }]);
  else await store.write(path, built.text);
}
