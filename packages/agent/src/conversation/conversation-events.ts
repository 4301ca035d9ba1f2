import { type AnyEvent, createEvent, parentForAppend, withParent } from '@x/events';
import { AppendConflictError, type EventLogLike, type Lease } from '@x/store';
import { maskStrings } from '../secrets/internal/mask-strings.js';
import type { ConversationState } from '../state/conversation-state.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import { linkEvent } from '../telemetry/index.js';
import type { ConversationListener } from './conversation-options.js';
import type { EventFold } from './event-fold.js';
import { headForAppend, stampParent } from './event-stamping.js';
import { asConversationLogGap, rejectLogGap } from './log-gap.js';

/** What appending needs to know of the conversation's ownership (a `RunOwnership`). */
export interface AppendOwnership {
  /** Shared with other processes or replicas: appends land at the index this instance expects. */
  readonly shared: boolean;
  /** The run lease appends are fenced with. */
  readonly lease: Lease | undefined;
  /** Throws when another owner took the conversation over. */
  assertOwner(): Promise<void>;
}

/**
 * The one way events enter a conversation: appended to the log, folded, then announced to the listeners, one
 * event at a time in log order (a queue, so concurrent emits keep their order).
 */
export class ConversationEvents {
  readonly #log: EventLogLike;
  readonly #fold: EventFold;
  readonly #ownership: AppendOwnership;
  readonly #listeners = new Set<ConversationListener>();
  #emitting: Promise<unknown> = Promise.resolve();
  /**
   * Stats updates of a step's LLM responses, held until the step's next event so that both are written in
   * one round (`EventLogLike.appendMany`: with fsync, the shared fsyncs make the pair cost one append); a
   * checkpoint (every few steps, at the end of a run, at close) writes what is left on its own.
   */
  #heldUpdates: AnyEvent[] = [];
  /** Writes queued and not yet settled: none means `settled()` has nothing to wait for. */
  #queued = 0;
  readonly #mask: ((text: string) => string) | undefined;
  /** Run in the queue before the first append, until it succeeds once (see the constructor). */
  #beforeFirstAppend: (() => Promise<void>) | undefined;
  /** Names the conversation in `ConversationLogGapError` (see `#readyToAppend`); tests of this class alone omit it. */
  readonly #conversationId: string | undefined;

  constructor(init: {
    log: EventLogLike;
    fold: EventFold;
    ownership: AppendOwnership;
    /** Hides the conversation's secrets (`SecretRegistry.mask`) in the error events that enter the log. */
    mask?: (text: string) => string;
    /**
     * Writes what must be durable before the log grows: the checkpoint of a conversation whose base_state.json
     * would otherwise win over the events appended before the next one (`checkpointBeforeAppend`).
     */
    beforeFirstAppend?: () => Promise<void>;
    /** The conversation's id: an append to a log that ends at a gap is refused with `ConversationLogGapError`. */
    conversationId?: string;
  }) {
    this.#conversationId = init.conversationId;
    this.#log = init.log;
    this.#fold = init.fold;
    this.#ownership = init.ownership;
    this.#mask = init.mask;
    this.#beforeFirstAppend = init.beforeFirstAppend;
  }

  async #readyToAppend(): Promise<void> {
    // Before the checkpoint written ahead of the first append: a log ending at a gap takes nothing.
    if (this.#conversationId !== undefined) rejectLogGap(this.#conversationId, this.#log);
    await this.#ownership.assertOwner();
    const prepare = this.#beforeFirstAppend;
    if (prepare === undefined) return;
    await prepare();
    this.#beforeFirstAppend = undefined;
  }

  /**
   * Error events carry messages from anywhere (an LLM provider echoing the prompt, an exception's text, a failing
   * extension): at this one door into the log every string of theirs is masked, whoever built them. Observations
   * and hook events are masked where they are made (with the tool's own values); other events hold no foreign text.
   */
  #masked(event: AnyEvent): AnyEvent {
    if (this.#mask === undefined) return event;
    if (event.kind !== 'ConversationErrorEvent' && event.kind !== 'AgentErrorEvent') return event;
    return maskStrings(event, this.#mask);
  }

  get state(): ConversationState {
    return this.#fold.state;
  }

  /** Resolves once every event queued so far is appended and applied (never rejects). */
  settled(): Promise<unknown> {
    return this.#emitting;
  }

  /** True when every event queued so far is appended and applied: the state is final, `settled()` would not wait. */
  get idle(): boolean {
    return this.#queued === 0;
  }

  subscribe(listener: ConversationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  clearListeners(): void {
    this.#listeners.clear();
  }

  /** Announces an event that is not recorded (a streaming delta): listeners get no index. */
  publish(event: AnyEvent): void {
    for (const listener of this.#listeners) listener(event, undefined);
  }

  /** Appends, folds, updates the view and notifies, one event at a time in log order. */
  emit(given: AnyEvent): Promise<void> {
    const event = this.#masked(given);
    if (this.#heldUpdates.length > 0) return this.#emitBatch([...this.#heldUpdates.splice(0), event]);
    linkEvent(event);
    return this.#enqueue(async () => {
      await this.#readyToAppend();
      const { stamped, index } = this.#ownership.shared
        ? await this.#appendAfterOthers(event)
        : await this.#appendStamped(event);
      // Another writer (process or machine) appended in between: fold its events first.
      await this.#fold.applyMissing(index);
      this.#announce(stamped, index);
    });
  }

  async setStatus(status: ExecutionStatus): Promise<void> {
    if (this.#fold.state.execution_status === status) return;
    await this.emit(createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: status }));
  }

  /** Holds a stats update for the next event (see `#heldUpdates`). */
  hold(update: AnyEvent): void {
    this.#heldUpdates.push(update);
  }

  /** The stats snapshot with the held updates applied (what the next stats update must build on). */
  latestStats(): ConversationState['stats'] {
    const held = this.#heldUpdates.at(-1);
    return held?.kind === 'ConversationStateUpdateEvent'
      ? (held.value as ConversationState['stats'])
      : this.#fold.state.stats;
  }

  /** Writes the held updates that no event of their step took along (see `#heldUpdates`). */
  async flushHeld(): Promise<void> {
    if (this.#heldUpdates.length === 0) return;
    const held = this.#heldUpdates.splice(0);
    await (held.length === 1 ? this.emit(held[0]!) : this.#emitBatch(held));
  }

  /**
   * Reads the events other processes or replicas appended to the log since this instance last looked and
   * folds them into the state (one query on a database log).
   */
  async catchUp(): Promise<void> {
    await this.#emitting;
    await this.#log.refresh();
    await this.#fold.applyMissing();
  }

  #enqueue(write: () => Promise<void>): Promise<void> {
    this.#queued++;
    const id = this.#conversationId;
    // A log that does not tell its gap ahead (a wrapper) refuses the append itself: the same error reaches the caller.
    const next = this.#emitting.then(write).catch((error: unknown) => {
      throw id === undefined ? error : asConversationLogGap(id, error);
    });
    // Registered before the caller's own await on `next`, so the count is down when the caller goes on.
    this.#emitting = next.then(this.#written, this.#written);
    return next;
  }

  readonly #written = (): undefined => {
    this.#queued--;
    return undefined;
  };

  #announce(event: AnyEvent, index: number): void {
    this.#fold.apply(event);
    for (const listener of this.#listeners) listener(event, index);
  }

  /**
   * Appends held state updates and the event after them in one round (`appendMany`), then folds and
   * announces each as `emit` would. Only state updates precede the last event, and they never move HEAD,
   * so every event gets the parent one append at a time would give it.
   */
  #emitBatch(events: AnyEvent[]): Promise<void> {
    for (const event of events) linkEvent(event);
    return this.#enqueue(async () => {
      await this.#readyToAppend();
      const { stamped, indices } = this.#ownership.shared
        ? await this.#appendBatchAfterOthers(events)
        : await this.#appendBatch(events);
      for (const [offset, event] of stamped.entries()) {
        const index = indices[offset]!;
        // Another writer appended in between: fold its events first.
        await this.#fold.applyMissing(index);
        this.#announce(event, index);
      }
    });
  }

  /** `events` with HEAD as their parent (state updates never move it), as one append at a time would stamp them. */
  async #stampBatch(events: readonly AnyEvent[]): Promise<AnyEvent[]> {
    const base = this.#log.length;
    const leaf = await headForAppend(this.#log, this.#fold);
    return events.map((event, offset) => {
      if (event.parent_id !== undefined) return event;
      const parent = parentForAppend(leaf, base + offset);
      return parent === undefined ? event : withParent(event, parent);
    });
  }

  async #appendBatch(events: readonly AnyEvent[]): Promise<{ stamped: AnyEvent[]; indices: number[] }> {
    const stamped = await this.#stampBatch(events);
    return { stamped, indices: await this.#log.appendMany!(stamped) };
  }

  /**
   * `#appendAfterOthers` for a batch (only on logs that honour `appendMany`'s options, `fencesAppends`): the whole
   * batch at the index after every event this instance has folded, fenced with the run's lease in the same write.
   */
  async #appendBatchAfterOthers(events: readonly AnyEvent[]): Promise<{ stamped: AnyEvent[]; indices: number[] }> {
    for (;;) {
      await this.#fold.applyMissing();
      const stamped = await this.#stampBatch(events);
      try {
        const fence = this.#ownership.lease;
        const expectedIndex = this.#fold.state.event_count;
        const options = fence ? { expectedIndex, fence } : { expectedIndex };
        return { stamped, indices: await this.#log.appendMany!(stamped, options) };
      } catch (error) {
        if (!AppendConflictError.isInstance(error)) throw error;
        await this.#log.refresh();
        await this.#ownership.lease?.assertHeld();
      }
    }
  }

  async #appendStamped(event: AnyEvent): Promise<{ stamped: AnyEvent; index: number }> {
    const stamped = await stampParent(this.#log, this.#fold, event);
    return { stamped, index: await this.#log.append(stamped) };
  }

  /**
   * Shared with other processes or replicas (`leases`): appends only at the index after every event this
   * instance has folded, so the event's parent is HEAD as the log has it (a message another replica
   * appended while this one runs stays on the branch); on a conflict, folds the newcomers and restamps.
   */
  async #appendAfterOthers(event: AnyEvent): Promise<{ stamped: AnyEvent; index: number }> {
    for (;;) {
      await this.#fold.applyMissing();
      const stamped = await stampParent(this.#log, this.#fold, event);
      try {
        const fence = this.#ownership.lease;
        const expectedIndex = this.#fold.state.event_count;
        return {
          stamped,
          index: await this.#log.append(stamped, fence ? { expectedIndex, fence } : { expectedIndex }),
        };
      } catch (error) {
        if (!AppendConflictError.isInstance(error)) throw error;
        await this.#log.refresh();
        // Someone else appended: it may be a new owner that took the conversation over.
        await this.#ownership.lease?.assertHeld();
      }
    }
  }
}
