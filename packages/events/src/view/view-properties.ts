import type { LLMConvertibleEvent } from '../schemas/events.js';

/**
 * The four view properties of the reference (§6.2, §6.3), each as a removal rule (enforce) and a
 * cut rule (manipulation indices). All run in one pass with Maps/Sets: linear in the events.
 */

export function isObservationLikeKind(kind: string): boolean {
  return kind === 'ObservationEvent' || kind === 'UserRejectObservation' || kind === 'AgentErrorEvent';
}

export function toolCallIdOf(event: LLMConvertibleEvent): string | undefined {
  return event.kind === 'ActionEvent' || isObservationLikeKind(event.kind)
    ? (event as { tool_call_id: string }).tool_call_id
    : undefined;
}

/** ObservationUniqueness: keep the first result per tool_call_id, drop later ones. */
export function enforceObservationUniqueness(view: readonly LLMConvertibleEvent[]): Set<string> {
  const seen = new Set<string>();
  const remove = new Set<string>();
  for (const event of view) {
    if (!isObservationLikeKind(event.kind)) continue;
    const callId = toolCallIdOf(event) as string;
    if (seen.has(callId)) remove.add(event.id);
    else seen.add(callId);
  }
  return remove;
}

/**
 * BatchAtomicity: a response whose actions are not all in the view loses the rest. The view's
 * actions are a subset of the log's, so comparing counts compares the id sets.
 */
export function enforceBatchAtomicity(
  view: readonly LLMConvertibleEvent[],
  allBatches: Map<string, number>,
): Set<string> {
  const viewBatches = new Map<string, string[]>();
  for (const event of view) {
    if (event.kind !== 'ActionEvent') continue;
    const ids = viewBatches.get(event.llm_response_id);
    if (ids === undefined) viewBatches.set(event.llm_response_id, [event.id]);
    else ids.push(event.id);
  }
  const remove = new Set<string>();
  for (const [responseId, ids] of viewBatches) {
    if (ids.length !== allBatches.get(responseId)) for (const id of ids) remove.add(id);
  }
  return remove;
}

/** ToolCallMatching: drop actions without a result in the view, and results without their action. */
export function enforceToolCallMatching(view: readonly LLMConvertibleEvent[]): Set<string> {
  const actionCalls = new Set<string>();
  const resultCalls = new Set<string>();
  for (const event of view) {
    if (event.kind === 'ActionEvent') actionCalls.add(event.tool_call_id);
    else if (isObservationLikeKind(event.kind)) resultCalls.add(toolCallIdOf(event) as string);
  }
  const remove = new Set<string>();
  for (const event of view) {
    if (event.kind === 'ActionEvent') {
      if (!resultCalls.has(event.tool_call_id)) remove.add(event.id);
    } else if (isObservationLikeKind(event.kind)) {
      if (!actionCalls.has(toolCallIdOf(event) as string)) remove.add(event.id);
    }
  }
  return remove;
}

/**
 * Tool loops of the whole log (built by the ViewLedger as events arrive): a loop starts at an ActionEvent
 * with thinking blocks (even right after another loop), continues through actions and results, and ends
 * at any other event, including events the view ignores (condensations, pauses, hooks).
 */
export interface ToolLoops {
  /** Loop number of each event id that belongs to a loop. */
  loopOf: Map<string, number>;
  /** Number of events in each loop. */
  sizes: number[];
}

/** ToolLoopAtomicity: a loop only partly in the view is dropped from it entirely. */
export function enforceToolLoopAtomicity(view: readonly LLMConvertibleEvent[], loops: ToolLoops): Set<string> {
  const remove = new Set<string>();
  if (loops.sizes.length === 0) return remove;
  const inView = new Map<number, string[]>();
  for (const event of view) {
    const loop = loops.loopOf.get(event.id);
    if (loop === undefined) continue;
    const ids = inView.get(loop);
    if (ids === undefined) inView.set(loop, [event.id]);
    else ids.push(event.id);
  }
  for (const [loop, ids] of inView) {
    if (ids.length < (loops.sizes[loop] as number)) for (const id of ids) remove.add(id);
  }
  return remove;
}

/**
 * One pass that tells whether the view holds something the repair removes for good: a duplicate or
 * orphan result, or a batch or tool loop only partly in the view. Actions still waiting for their result
 * are not counted (the ledger tracks those apart: their result may yet come).
 */
export function viewNeedsRepair(
  view: readonly LLMConvertibleEvent[],
  allBatches: Map<string, number>,
  loops: ToolLoops,
): boolean {
  const actionCalls = new Set<string>();
  const resultCalls = new Set<string>();
  const viewBatches = new Map<string, number>();
  const viewLoops = new Map<number, number>();
  for (const event of view) {
    const loop = loops.loopOf.get(event.id);
    if (loop !== undefined) viewLoops.set(loop, (viewLoops.get(loop) ?? 0) + 1);
    if (event.kind === 'ActionEvent') {
      actionCalls.add(event.tool_call_id);
      viewBatches.set(event.llm_response_id, (viewBatches.get(event.llm_response_id) ?? 0) + 1);
    } else if (isObservationLikeKind(event.kind)) {
      const callId = toolCallIdOf(event) as string;
      if (resultCalls.has(callId)) return true;
      resultCalls.add(callId);
    }
  }
  for (const callId of resultCalls) if (!actionCalls.has(callId)) return true;
  for (const [responseId, count] of viewBatches) if (count !== allBatches.get(responseId)) return true;
  for (const [loop, count] of viewLoops) if (count !== loops.sizes[loop]) return true;
  return false;
}

/**
 * Manipulation indices (§6.2): positions 0..length where events may be inserted or cut, the
 * intersection of the four properties (ObservationUniqueness restricts nothing).
 */
export function computeManipulationIndices(view: readonly LLMConvertibleEvent[]): number[] {
  const allowed = new Array<boolean>(view.length + 1).fill(true);
  const pending = new Set<string>();
  let inLoop = false;
  for (let i = 0; i < view.length; i++) {
    const event = view[i] as LLMConvertibleEvent;
    const previous = view[i - 1];
    if (event.kind === 'ActionEvent') {
      // BatchAtomicity: no cut inside a batch.
      if (previous?.kind === 'ActionEvent' && previous.llm_response_id === event.llm_response_id) allowed[i] = false;
      pending.add(event.tool_call_id);
      // ToolLoopAtomicity: a loop start is a boundary; later members are not.
      if (event.thinking_blocks.length > 0) inLoop = true;
      else if (inLoop) allowed[i] = false;
    } else if (isObservationLikeKind(event.kind)) {
      // The reference raises on a result with no pending call; a repaired view has none, so ignore it.
      pending.delete(toolCallIdOf(event) as string);
      if (inLoop) allowed[i] = false;
    } else {
      inLoop = false;
    }
    // ToolCallMatching: no cut while a call is unanswered.
    if (pending.size > 0) allowed[i + 1] = false;
  }
  const indices: number[] = [];
  for (let k = 0; k < allowed.length; k++) if (allowed[k]) indices.push(k);
  return indices;
}
