import type { AnyEvent, LLMConvertibleEvent } from '../schemas/events.js';
import { isObservationLikeKind, type ToolLoops, toolCallIdOf, viewNeedsRepair } from './view-properties.js';

/**
 * What the §6.3 repair needs to know about every event a View was given, kept as they arrive so that the
 * live view can be repaired exactly as `View.fromEvents` would repair it, without the whole log:
 * the number of actions per `llm_response_id` (BatchAtomicity) and the tool loops (ToolLoopAtomicity,
 * whose boundaries include events the view ignores, such as a Condensation). It also tracks whether the
 * folded view needs repair at all, so the usual healthy view costs O(1) per event.
 */
export class ViewLedger {
  readonly batches = new Map<string, number>();
  readonly loops: ToolLoops = { loopOf: new Map(), sizes: [] };
  #currentLoop = -1;
  /** Tool calls of the folded view's actions that have no result in it yet. */
  readonly #pending = new Set<string>();
  /** The folded view's actions per `llm_response_id`, to compare with the log's (`batches`). */
  readonly #viewBatches = new Map<string, number>();
  /** The folded view has a duplicate or orphan result, or a batch or loop it holds only in part. */
  #broken = false;

  /** Whether the folded view is exactly what the repair would leave. */
  get healthy(): boolean {
    return !this.#broken && this.#pending.size === 0;
  }

  /** True unless the folded view holds a broken batch, a broken loop, a duplicate or an orphan result. */
  get repairable(): boolean {
    return !this.#broken;
  }

  /** Records any event of the log (before the View folds it): batch sizes and tool-loop membership. */
  track(event: AnyEvent): void {
    const isAction = event.kind === 'ActionEvent';
    if (isAction) this.batches.set(event.llm_response_id, (this.batches.get(event.llm_response_id) ?? 0) + 1);
    // A loop starts at an action with thinking blocks and ends at anything but an action or a result.
    if (isAction && event.thinking_blocks.length > 0) {
      this.#currentLoop = this.loops.sizes.length;
      this.loops.sizes.push(0);
    } else if (!(isAction || isObservationLikeKind(event.kind))) {
      this.#currentLoop = -1;
    }
    if (this.#currentLoop >= 0) {
      this.loops.loopOf.set(event.id, this.#currentLoop);
      this.loops.sizes[this.#currentLoop] = (this.loops.sizes[this.#currentLoop] as number) + 1;
    }
  }

  /** An event was pushed onto the folded view. */
  pushed(event: LLMConvertibleEvent): void {
    if (event.kind === 'ActionEvent') {
      this.#pending.add(event.tool_call_id);
      // The log may hold actions of this response the fold lacks: a condensation forgot an earlier action of
      // a response id the provider gave again. The reference's BatchAtomicity drops the whole batch then.
      const inView = (this.#viewBatches.get(event.llm_response_id) ?? 0) + 1;
      this.#viewBatches.set(event.llm_response_id, inView);
      if (inView !== this.batches.get(event.llm_response_id)) this.#broken = true;
    } else if (isObservationLikeKind(event.kind)) {
      // A result for no pending call is a duplicate or an orphan: the repair drops it.
      if (!this.#pending.delete(toolCallIdOf(event) as string)) this.#broken = true;
    }
  }

  /**
   * The folded view was replaced (a Condensation): recompute what is pending and whether anything is
   * broken, and forget the loop membership of events no longer in it (they cannot come back).
   */
  refolded(view: readonly LLMConvertibleEvent[], forgotten: readonly string[]): void {
    for (const id of forgotten) this.loops.loopOf.delete(id);
    this.#pending.clear();
    this.#viewBatches.clear();
    const results = new Set<string>();
    for (const event of view) {
      if (event.kind === 'ActionEvent') {
        this.#pending.add(event.tool_call_id);
        this.#viewBatches.set(event.llm_response_id, (this.#viewBatches.get(event.llm_response_id) ?? 0) + 1);
      } else if (isObservationLikeKind(event.kind)) results.add(toolCallIdOf(event) as string);
    }
    for (const callId of results) this.#pending.delete(callId);
    this.#broken = viewNeedsRepair(view, this.batches, this.loops);
  }
}
