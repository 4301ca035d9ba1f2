import type { ConversationStateUpdateEvent } from '@x/events';

/**
 * Where a client's copy of a conversation's state stands, so that it never goes back in time. Each connection
 * starts with a full_state snapshot of the state now, then replays the log from the index asked for, so the
 * field updates replayed after it are older than the snapshot: applied, they would undo it (a replayed `running`
 * after the run finished, whose end is no field update). An x server says in the snapshot how many log events
 * it reflects (ConversationInfo's `event_count`, an x addition), and field updates below that index are
 * skipped; with a server that does not (the reference's), updates older than the snapshot's timestamp are.
 *
 * A plain immutable value, so a class (`RemoteConversation`) and a pure reducer (@x/react's snapshot) hold it
 * alike: `stateOrderAfter` on each full_state, `isNewerStateUpdate` before applying any other field update.
 */
export interface StateOrder {
  /** Field updates at a log index below this are already in the state. */
  readonly reflectedCount: number;
  /** Set when the last snapshot had no `event_count`: its timestamp; older field updates are already in the state. */
  readonly asOf: string | undefined;
}

/** Before any snapshot: every field update is newer. */
export const initialStateOrder: StateOrder = Object.freeze({ reflectedCount: 0, asOf: undefined });

/** The order after the full_state snapshot `snapshot` (`key: 'full_state'`) was applied. */
export function stateOrderAfter(snapshot: ConversationStateUpdateEvent): StateOrder {
  const value = snapshot.value as { event_count?: unknown } | null | undefined;
  const count = typeof value === 'object' && value !== null ? value.event_count : undefined;
  if (typeof count === 'number' && Number.isInteger(count)) return { reflectedCount: count, asOf: undefined };
  return { reflectedCount: 0, asOf: snapshot.timestamp };
}

/**
 * Whether the field update `update`, received with log index `index` (undefined for a published-only frame), is
 * newer than the state `order` describes, so must be applied.
 */
export function isNewerStateUpdate(
  order: StateOrder,
  update: ConversationStateUpdateEvent,
  index: number | undefined,
): boolean {
  if (order.asOf !== undefined) return update.timestamp >= order.asOf;
  return index === undefined || index >= order.reflectedCount;
}
