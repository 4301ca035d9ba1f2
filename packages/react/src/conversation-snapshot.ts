import { type EventsBefore, initialStateOrder, isNewerStateUpdate, type StateOrder, stateOrderAfter } from '@x/client';
import type { ActionEvent, AnyEvent } from '@x/events';
import { getUnmatchedActions } from '@x/events';

/** Where the event stream is. */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** What `useConversation` shows of a conversation at one moment. Each change is a new object. */
export interface ConversationSnapshot {
  /**
   * Persisted events in log order (`events[i]` has log index `firstIndex + i`): each once, none missing, across
   * reconnects. From index 0 unless the hook was asked to start later (`fromIndex`); `loadOlder()` prepends. An
   * event this client cannot read (a kind from a newer server) is left out, as the stream leaves it out, and the
   * events after it then sit one place lower than their log index.
   */
  readonly events: readonly AnyEvent[];
  /**
   * Log index of the oldest place of the log loaded: `events[0]`'s, or that of an unreadable event before it that a
   * `loadOlder()` page covered (of the next event while none is held).
   */
  readonly firstIndex: number;
  /**
   * Log index the next persisted event will have: one past the last event streamed. Not `firstIndex +
   * events.length` when an unreadable event was left out, which still holds its index in the log.
   */
  readonly nextIndex: number;
  /** Older events exist than those held (`firstIndex > 0`): `loadOlder()` fetches them. */
  readonly hasOlder: boolean;
  /** A `loadOlder()` is in progress. */
  readonly loadingOlder: boolean;
  /** The conversation's state: the last full_state snapshot with later field updates applied. */
  readonly state: Readonly<Record<string, unknown>>;
  /** `state.execution_status`: `idle`, `running`, `paused`, `waiting_for_confirmation`, `finished`, … */
  readonly executionStatus: string | undefined;
  readonly connection: ConnectionStatus;
  /** Why the stream stopped (bad key, unknown conversation, …) or the last server error frame. */
  readonly error: Error | undefined;
  /** The actions waiting for `confirm()` or `reject()`: empty unless the status is `waiting_for_confirmation`. */
  readonly pendingConfirmations: readonly ActionEvent[];
  /** Text the model is streaming (StreamingDeltaEvent), cleared when its message or action is recorded. */
  readonly streamingText: string;
  /** Reasoning the model is streaming, cleared likewise. */
  readonly streamingReasoning: string;
  /**
   * Which field updates `state` already reflects (@x/client's `StateOrder`: by log index with an x server's
   * `event_count`, by the snapshot's timestamp otherwise): older ones, replayed after a reconnection's snapshot,
   * are not applied.
   */
  readonly stateOrder: StateOrder;
}

export const initialConversationSnapshot: ConversationSnapshot = Object.freeze({
  events: Object.freeze([]),
  firstIndex: 0,
  nextIndex: 0,
  hasOlder: false,
  loadingOlder: false,
  state: Object.freeze({}),
  executionStatus: undefined,
  connection: 'connecting',
  error: undefined,
  pendingConfirmations: Object.freeze([]),
  streamingText: '',
  streamingReasoning: '',
  stateOrder: initialStateOrder,
});

/** One frame of the stream: a persisted event with its log index, or a published-only one (`index` undefined). */
export interface StreamFrame {
  event: AnyEvent;
  index: number | undefined;
}

/**
 * Folds frames into a snapshot. A persisted event whose index the snapshot already holds is dropped (it
 * cannot happen with an index-resuming stream, but a snapshot must never show an event twice).
 */
export function applyFrames(snapshot: ConversationSnapshot, frames: readonly StreamFrame[]): ConversationSnapshot {
  if (frames.length === 0) return snapshot;
  const events = [...snapshot.events];
  let state: Record<string, unknown> = snapshot.state;
  let { streamingText, streamingReasoning, error, stateOrder, firstIndex, nextIndex } = snapshot;
  for (const { event, index } of frames) {
    if (index !== undefined) {
      // The first event held fixes where the window starts (the stream's `fromIndex`).
      if (events.length === 0) firstIndex = index;
      else if (index < nextIndex) continue;
      events.push(event);
      nextIndex = index + 1;
    }
    switch (event.kind) {
      case 'ConversationStateUpdateEvent':
        if (event.key === 'full_state') {
          if (typeof event.value === 'object' && event.value !== null) state = { ...state, ...event.value };
          stateOrder = stateOrderAfter(event);
        } else if (isNewerStateUpdate(stateOrder, event, index)) {
          // The client's rule, so the hook and RemoteConversation agree on what a replayed field update is.
          state = { ...state, [event.key]: event.value };
        }
        break;
      case 'StreamingDeltaEvent':
        streamingText += event.content ?? '';
        streamingReasoning += event.reasoning_content ?? '';
        break;
      case 'ServerErrorEvent':
        error = new Error(`${event.code}: ${event.detail}`);
        break;
      case 'MessageEvent':
      case 'ActionEvent':
        if (event.source === 'agent') {
          streamingText = '';
          streamingReasoning = '';
        }
        break;
    }
  }
  const executionStatus = typeof state.execution_status === 'string' ? state.execution_status : undefined;
  return {
    ...snapshot,
    events,
    firstIndex,
    nextIndex,
    hasOlder: firstIndex > 0,
    state,
    stateOrder,
    executionStatus,
    pendingConfirmations: pendingOf(executionStatus, events),
    streamingText,
    streamingReasoning,
    error,
  };
}

/**
 * Puts a page of the events just before the window in front (`fetchEventsBefore` of @x/client): the window then
 * starts `slots` places earlier, unreadable events left out of `events` counted, or at index 0 with `reachedStart`.
 */
export function prependEvents(
  snapshot: ConversationSnapshot,
  page: Pick<EventsBefore, 'events' | 'reachedStart' | 'slots'>,
): ConversationSnapshot {
  const firstIndex = page.reachedStart ? 0 : Math.max(0, snapshot.firstIndex - page.slots);
  const events = [...page.events, ...snapshot.events];
  return {
    ...snapshot,
    events,
    firstIndex,
    hasOlder: firstIndex > 0,
    pendingConfirmations: pendingOf(snapshot.executionStatus, events),
  };
}

function pendingOf(executionStatus: string | undefined, events: readonly AnyEvent[]): readonly ActionEvent[] {
  return executionStatus === 'waiting_for_confirmation'
    ? getUnmatchedActions(events)
    : initialConversationSnapshot.pendingConfirmations;
}
