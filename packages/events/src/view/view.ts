import { hasLlmMessage } from '../convert/event-to-llm-message.js';
import { NoManipulationIndexError } from '../errors/no-manipulation-index-error.js';
import type { AnyEvent, LLMConvertibleEvent } from '../schemas/events.js';
import { applyCondensation } from './apply-condensation.js';
import {
  computeManipulationIndices,
  countBatches,
  enforceBatchAtomicity,
  enforceObservationUniqueness,
  enforceToolCallMatching,
  enforceToolLoopAtomicity,
  findToolLoops,
  viewNeedsRepair,
} from './view-properties.js';

/**
 * What the LLM sees of a conversation (reference §6): the LLM-convertible events left after
 * condensations, and whether a condensation was requested and not yet done. In memory only.
 *
 * `View.fromEvents` is the full rebuild (with property repair); `append` is the hot path as events
 * arrive (amortised O(1), no repair; a Condensation costs one pass over the view).
 */
export class View {
  #events: LLMConvertibleEvent[] = [];
  #unhandledCondensationRequest = false;

  /**
   * The view's events in order. This is the live array (no copy, so reading it is free): it changes
   * when the view does. Copy it to keep a snapshot.
   */
  get events(): readonly LLMConvertibleEvent[] {
    return this.#events;
  }

  /** True after a CondensationRequest until the next Condensation. */
  get unhandledCondensationRequest(): boolean {
    return this.#unhandledCondensationRequest;
  }

  /** Builds the view of a whole event list: appends each event, then repairs the properties (§6.3). */
  static fromEvents(events: readonly AnyEvent[]): View {
    const view = new View();
    for (const event of events) view.append(event);
    view.enforceProperties(events);
    return view;
  }

  /**
   * A view whose events are already known: `events` in order (as `View.events` held them) and the
   * pending-request flag. For restoring a view saved by a caller (a checkpoint it validated against the
   * log); applies nothing and repairs nothing. The array is copied.
   */
  static restore(events: readonly LLMConvertibleEvent[], unhandledCondensationRequest: boolean): View {
    const view = new View();
    view.#events = [...events];
    view.#unhandledCondensationRequest = unhandledCondensationRequest;
    return view;
  }

  /**
   * Applies one event (§6.1): a Condensation forgets/summarises and clears a pending request; a
   * CondensationRequest sets it; LLM-convertible events (and custom kinds with an LLM message) are
   * appended; everything else is ignored.
   */
  append(event: AnyEvent): void {
    if (event.kind === 'Condensation') {
      this.#events = applyCondensation(this.#events, event);
      this.#unhandledCondensationRequest = false;
    } else if (event.kind === 'CondensationRequest') {
      this.#unhandledCondensationRequest = true;
    } else if (hasLlmMessage(event)) {
      this.#events.push(event as LLMConvertibleEvent);
    }
  }

  /**
   * Repairs the view against the whole log `allEvents` (§6.3): ObservationUniqueness,
   * BatchAtomicity, ToolCallMatching, ToolLoopAtomicity in that order; the first property that
   * removes something restarts the pass, until a pass removes nothing. Returns the removed ids.
   */
  enforceProperties(allEvents: readonly AnyEvent[]): Set<string> {
    const allBatches = countBatches(allEvents);
    const loops = findToolLoops(allEvents);
    const rules = [
      (view: readonly LLMConvertibleEvent[]) => enforceObservationUniqueness(view),
      (view: readonly LLMConvertibleEvent[]) => enforceBatchAtomicity(view, allBatches),
      (view: readonly LLMConvertibleEvent[]) => enforceToolCallMatching(view),
      (view: readonly LLMConvertibleEvent[]) => enforceToolLoopAtomicity(view, loops),
    ];
    const removed = new Set<string>();
    if (!viewNeedsRepair(this.#events, allBatches, loops)) return removed;
    let changed = true;
    while (changed) {
      changed = false;
      for (const rule of rules) {
        const remove = rule(this.#events);
        if (remove.size === 0) continue;
        for (const id of remove) removed.add(id);
        this.#events = this.#events.filter((event) => !remove.has(event.id));
        changed = true;
        break;
      }
    }
    return removed;
  }

  /** Positions (0..length, ascending) where events may be inserted or cut without breaking a property (§6.2). */
  manipulationIndices(): number[] {
    return computeManipulationIndices(this.#events);
  }

  /** The smallest manipulation index ≥ `threshold`; throws `NoManipulationIndexError` if there is none. */
  findNextManipulationIndex(threshold: number): number {
    for (const index of this.manipulationIndices()) if (index >= threshold) return index;
    throw new NoManipulationIndexError({ threshold, viewLength: this.#events.length });
  }
}
