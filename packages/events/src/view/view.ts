import { hasLlmMessage } from '../convert/event-to-llm-message.js';
import { NoManipulationIndexError } from '../errors/no-manipulation-index-error.js';
import type { AnyEvent, LLMConvertibleEvent } from '../schemas/events.js';
import { markAppendOnly } from './append-only-arrays.js';
import { applyCondensation } from './apply-condensation.js';
import { ViewLedger } from './view-ledger.js';
import {
  computeManipulationIndices,
  enforceBatchAtomicity,
  enforceObservationUniqueness,
  enforceToolCallMatching,
  enforceToolLoopAtomicity,
} from './view-properties.js';

/**
 * What the LLM sees of a conversation (reference §6): the LLM-convertible events left after
 * condensations, repaired (§6.3), and whether a condensation was requested and not yet done. In memory only.
 *
 * A View is the same whether it is built at once (`View.fromEvents`) or event by event (`append`): both
 * fold the events (condensations apply to the folded events, as in the reference) and `events` is the
 * repair of that fold against every event given so far, which is exactly the reference's `from_events`
 * of those events. The repair is computed only when the fold needs one (after a condensation that cut a
 * batch or tool loop, or while a tool call waits for its result), so a healthy view costs O(1) per event.
 */
export class View {
  /**
   * The fold: condensations applied, not repaired. Only pushed onto, replaced by a Condensation (each array is
   * `markAppendOnly`: never pop, splice or assign into it).
   */
  #folded: LLMConvertibleEvent[] = View.#newFold([]);
  /** The repaired events, or undefined until next read; the fold itself when it needs no repair. */
  #repaired: LLMConvertibleEvent[] | undefined;
  #ledger = new ViewLedger();
  #unhandledCondensationRequest = false;

  /**
   * The view's events in order, repaired. When the view needs no repair (the usual case) this is the live
   * array of the fold (no copy, so reading it is free): it changes when the view does. Copy it to keep a
   * snapshot.
   */
  get events(): readonly LLMConvertibleEvent[] {
    if (this.#repaired === undefined) this.#repaired = this.#repair();
    return this.#repaired;
  }

  /**
   * The fold before repair: what the view holds when a tool call still waits for its result (the repair
   * hides it until the result comes). A view checkpoint saves this, so that a restored view goes on like
   * the live one. Same live-array rule as `events`.
   */
  get foldedEvents(): readonly LLMConvertibleEvent[] {
    return this.#folded;
  }

  /**
   * False when the fold holds something the repair removes for good (a batch or tool loop a condensation
   * cut, a duplicate or orphan result): such a view cannot be saved as its fold and restored from it alone,
   * because the repair depends on events outside it.
   */
  get restorable(): boolean {
    return this.#ledger.repairable;
  }

  /** True after a CondensationRequest until the next Condensation. */
  get unhandledCondensationRequest(): boolean {
    return this.#unhandledCondensationRequest;
  }

  static #newFold(events: LLMConvertibleEvent[]): LLMConvertibleEvent[] {
    markAppendOnly(events);
    return events;
  }

  /** Builds the view of a whole event list: the same as appending each event to an empty view. */
  static fromEvents(events: readonly AnyEvent[]): View {
    const view = new View();
    for (const event of events) view.append(event);
    return view;
  }

  /**
   * A view whose fold is already known: `events` in order (as `View.foldedEvents` held them, from a view
   * that was `restorable`) and the pending-request flag. For restoring a view saved by a caller (a
   * checkpoint it validated against the log); applies nothing. Batches and tool loops are taken from
   * these events, which holds for a restorable view's own events. The array is copied.
   */
  static restore(events: readonly LLMConvertibleEvent[], unhandledCondensationRequest: boolean): View {
    const view = new View();
    for (const event of events) view.append(event);
    view.#unhandledCondensationRequest = unhandledCondensationRequest;
    return view;
  }

  /**
   * Applies one event (§6.1): a Condensation forgets/summarises and clears a pending request; a
   * CondensationRequest sets it; LLM-convertible events (and custom kinds with an LLM message) are
   * appended; everything else is ignored, except that it ends a tool loop.
   */
  append(event: AnyEvent): void {
    this.#ledger.track(event);
    if (event.kind === 'Condensation') {
      this.#folded = View.#newFold(applyCondensation(this.#folded, event));
      this.#ledger.refolded(this.#folded, event.forgotten_event_ids);
      this.#unhandledCondensationRequest = false;
      this.#repaired = undefined;
    } else if (event.kind === 'CondensationRequest') {
      this.#unhandledCondensationRequest = true;
    } else if (hasLlmMessage(event)) {
      const wasHealthy = this.#ledger.healthy;
      this.#folded.push(event as LLMConvertibleEvent);
      this.#ledger.pushed(event as LLMConvertibleEvent);
      // A healthy fold is its own repair, and stays the same array: nothing to recompute.
      if (!(wasHealthy && this.#ledger.healthy && this.#repaired === this.#folded)) this.#repaired = undefined;
    }
  }

  /**
   * The §6.3 repair of the fold: ObservationUniqueness, BatchAtomicity, ToolCallMatching,
   * ToolLoopAtomicity in that order; the first property that removes something restarts the pass, until
   * a pass removes nothing.
   */
  #repair(): LLMConvertibleEvent[] {
    if (this.#ledger.healthy) return this.#folded;
    const { batches, loops } = this.#ledger;
    const rules = [
      (view: readonly LLMConvertibleEvent[]) => enforceObservationUniqueness(view),
      (view: readonly LLMConvertibleEvent[]) => enforceBatchAtomicity(view, batches),
      (view: readonly LLMConvertibleEvent[]) => enforceToolCallMatching(view),
      (view: readonly LLMConvertibleEvent[]) => enforceToolLoopAtomicity(view, loops),
    ];
    let events = this.#folded;
    let changed = true;
    while (changed) {
      changed = false;
      for (const rule of rules) {
        const remove = rule(events);
        if (remove.size === 0) continue;
        events = events.filter((event) => !remove.has(event.id));
        changed = true;
        break;
      }
    }
    return events === this.#folded ? [...events] : events;
  }

  /** Positions (0..length, ascending) where events may be inserted or cut without breaking a property (§6.2). */
  manipulationIndices(): number[] {
    return computeManipulationIndices(this.events);
  }

  /** The smallest manipulation index ≥ `threshold`; throws `NoManipulationIndexError` if there is none. */
  findNextManipulationIndex(threshold: number): number {
    for (const index of this.manipulationIndices()) if (index >= threshold) return index;
    throw new NoManipulationIndexError({ threshold, viewLength: this.events.length });
  }
}
