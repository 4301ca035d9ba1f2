import { type AnyEvent, ROOT_PARENT_ID, View } from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import { applyEvent } from '../state/apply-event.js';
import type { ConversationState } from '../state/conversation-state.js';
import { continuesBranch, readBranch, recentBranch } from './branch-history.js';
import { isOnBranch, restoreView } from './view-checkpoint/index.js';

/** How many recent events are kept in memory for stuck detection (it looks at the last 20). */
export const RECENT_EVENTS = 64;

/**
 * What a conversation derives from its events: the state (a fold, `applyEvent`), the LLM view of the active
 * branch and the recent events stuck detection reads. Folds one event at a time; never writes.
 */
export class EventFold {
  #state: ConversationState;
  #view: View | undefined;
  #recent: AnyEvent[] = [];
  /** Events before this index were written before this process opened the conversation; read on first run. */
  #unreadHistoryEnd: number | undefined;
  readonly #log: EventLogLike;

  constructor(log: EventLogLike, state: ConversationState) {
    this.#log = log;
    this.#state = state;
  }

  get state(): ConversationState {
    return this.#state;
  }

  /** The view as built so far (undefined until `view()` builds it), for the view checkpoint. */
  get builtView(): View | undefined {
    return this.#view;
  }

  /** HEAD of the conversation tree: the event the next one will answer; undefined for an empty HEAD. */
  get leafEventId(): string | undefined {
    return this.#state.head_is_empty ? undefined : this.#state.leaf_event_id;
  }

  apply(event: AnyEvent): void {
    const head = this.leafEventId;
    this.#state = applyEvent(this.#state, event);
    // The view follows the active branch: an event that does not continue it (written by another process
    // after moving HEAD) makes the next view() rebuild from the log.
    if (this.#view !== undefined && continuesBranch(event, head)) {
      if (isOnBranch(event)) this.#view.append(event);
    } else if (this.#view !== undefined) {
      this.#view = undefined;
    }
    this.#recent.push(event);
    if (this.#recent.length > RECENT_EVENTS * 2) this.#recent = this.#recent.slice(-RECENT_EVENTS);
  }

  /** Folds the log's events this instance has not seen yet, up to `end` (the whole log by default). */
  async applyMissing(end = this.#log.length): Promise<void> {
    for (let missing = this.#state.event_count; missing < end; missing++) this.apply(await this.#log.get(missing));
  }

  /** Recent events for stuck detection, without state updates. */
  recentEvents(): AnyEvent[] {
    return this.#recent.filter((event) => event.kind !== 'ConversationStateUpdateEvent');
  }

  /** The history written before this process opened the conversation is read on the first run (`readRecentHistory`). */
  deferHistory(end: number): void {
    this.#unreadHistoryEnd = end;
  }

  /**
   * Puts the last events of the active branch written before this process opened the conversation in
   * front of the recent events: walked back from HEAD (O(RECENT_EVENTS) reads), so an abandoned branch at the
   * end of the log is not mistaken for recent history.
   */
  async readRecentHistory(): Promise<void> {
    const end = this.#unreadHistoryEnd;
    if (end === undefined) return;
    this.#unreadHistoryEnd = undefined;
    // Events emitted since opening are at the front of #recent: history ends where the first attaches.
    const first = this.#recent[0];
    const from = first === undefined ? this.leafEventId : first.parent_id;
    if (from === undefined || from === ROOT_PARENT_ID) return;
    this.#recent = [...(await recentBranch(this.#log, from, RECENT_EVENTS)), ...this.#recent];
  }

  /**
   * The LLM-visible view of the active branch: built from the log once, then kept up to date as events are
   * applied (O(1) per event); moving HEAD rebuilds it.
   */
  async view(store: FileStore, directory: string): Promise<View> {
    if (this.#view === undefined) {
      // A resumed conversation reads only its view's events, when its view checkpoint matches the log
      // (and no event was applied meanwhile, which the restored view would lack).
      const state = this.#state;
      const restored = await restoreView({ store, directory, log: this.#log, state });
      if (restored !== undefined && this.#view === undefined && this.#state.event_count === state.event_count) {
        this.#view = restored;
        return restored;
      }
      if (this.#view !== undefined) return this.#view;
      const { branch } = await readBranch(this.#log, this.#state.leaf_event_id, this.#state.head_is_empty);
      this.#view = View.fromEvents(branch);
    }
    return this.#view;
  }

  /** After HEAD moved: the state, view and recent events of the new branch replace the old ones. */
  moveHead(next: { state: ConversationState; branch: AnyEvent[] }): void {
    this.#state = next.state;
    this.#view = View.fromEvents(next.branch);
    this.#recent = next.branch.slice(-RECENT_EVENTS);
    this.#unreadHistoryEnd = undefined;
  }
}
