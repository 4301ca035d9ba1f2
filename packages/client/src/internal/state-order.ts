import type { AnyEvent } from '@x/events';

type StateUpdate = Extract<AnyEvent, { kind: 'ConversationStateUpdateEvent' }>;

/**
 * Keeps `state` from going back in time. Each connection starts with a full_state snapshot of the state now,
 * then replays the log from the index asked for, so the field updates replayed after it are older than the
 * snapshot: applied, they would undo it (a replayed `running` after the run finished, whose end is no field
 * update). An x server says in the snapshot how many log events it reflects (`event_count`), and field updates
 * below that index are skipped; with a server that does not (the reference's), updates older than the
 * snapshot's timestamp are.
 */
export class StateOrder {
  /** Field updates at a log index below this are already in the state. */
  #reflectedCount = 0;
  /** Without `event_count`: the snapshot's timestamp; older field updates are already in the state. */
  #asOf: string | undefined;

  onSnapshot(snapshot: StateUpdate): void {
    const value = snapshot.value as { event_count?: unknown } | null | undefined;
    const count = typeof value === 'object' && value !== null ? value.event_count : undefined;
    if (typeof count === 'number' && Number.isInteger(count)) {
      this.#reflectedCount = count;
      this.#asOf = undefined;
    } else {
      this.#asOf = snapshot.timestamp;
    }
  }

  /** Whether the field update `update` (log index `index`) is newer than the state, so must be applied. */
  isNewer(update: StateUpdate, index: number | undefined): boolean {
    if (this.#asOf !== undefined) return update.timestamp >= this.#asOf;
    return index === undefined || index >= this.#reflectedCount;
  }
}
