import { hasLlmMessage } from '../../src/convert/event-to-llm-message.js';
import type { AnyEvent, LLMConvertibleEvent } from '../../src/schemas/events.js';
import { applyCondensation } from '../../src/view/apply-condensation.js';

/**
 * A line-by-line port of the reference's `View.from_events` (openhands-sdk context/view/view.py and
 * properties/*.py at 611629e6), written for clarity, not speed, and sharing nothing with `View` but
 * `Condensation.apply`: the oracle the property tests hold both of our paths to.
 */
export function referenceFromEvents(allEvents: readonly AnyEvent[]): {
  events: LLMConvertibleEvent[];
  unhandledCondensationRequest: boolean;
} {
  let events: LLMConvertibleEvent[] = [];
  let unhandledCondensationRequest = false;
  for (const event of allEvents) {
    if (event.kind === 'Condensation') {
      events = applyCondensation(events, event);
      unhandledCondensationRequest = false;
    } else if (event.kind === 'CondensationRequest') {
      unhandledCondensationRequest = true;
    } else if (hasLlmMessage(event)) {
      events.push(event as LLMConvertibleEvent);
    }
  }
  // enforce_properties: the first property that removes something restarts the pass.
  for (;;) {
    let removed: Set<string> | undefined;
    for (const property of PROPERTIES) {
      const remove = property(events, allEvents);
      if (remove.size > 0) {
        removed = remove;
        break;
      }
    }
    if (removed === undefined) return { events, unhandledCondensationRequest };
    const drop = removed;
    events = events.filter((event) => !drop.has(event.id));
  }
}

type Property = (view: readonly LLMConvertibleEvent[], all: readonly AnyEvent[]) => Set<string>;

const isObservationBase = (event: AnyEvent): event is AnyEvent & { tool_call_id: string } =>
  event.kind === 'ObservationEvent' || event.kind === 'UserRejectObservation' || event.kind === 'AgentErrorEvent';

const observationUniqueness: Property = (view) => {
  const seen = new Set<string>();
  const remove = new Set<string>();
  for (const event of view) {
    if (!isObservationBase(event)) continue;
    if (seen.has(event.tool_call_id)) remove.add(event.id);
    else seen.add(event.tool_call_id);
  }
  return remove;
};

function buildBatches(events: readonly AnyEvent[]): Map<string, Set<string>> {
  const batches = new Map<string, Set<string>>();
  for (const event of events) {
    if (event.kind !== 'ActionEvent') continue;
    const batch = batches.get(event.llm_response_id) ?? new Set<string>();
    batch.add(event.id);
    batches.set(event.llm_response_id, batch);
  }
  return batches;
}

const batchAtomicity: Property = (view, all) => {
  const allBatches = buildBatches(all);
  const remove = new Set<string>();
  for (const [responseId, ids] of buildBatches(view)) {
    const full = allBatches.get(responseId) ?? new Set<string>();
    const same = full.size === ids.size && [...ids].every((id) => full.has(id));
    if (!same) for (const id of ids) remove.add(id);
  }
  return remove;
};

const toolCallMatching: Property = (view) => {
  const actions = new Set<string>();
  const observations = new Set<string>();
  for (const event of view) {
    if (event.kind === 'ActionEvent') actions.add(event.tool_call_id);
    else if (isObservationBase(event)) observations.add(event.tool_call_id);
  }
  const remove = new Set<string>();
  for (const event of view) {
    if (event.kind === 'ActionEvent' && !observations.has(event.tool_call_id)) remove.add(event.id);
    else if (isObservationBase(event) && !actions.has(event.tool_call_id)) remove.add(event.id);
  }
  return remove;
};

function toolLoops(events: readonly AnyEvent[]): Set<string>[] {
  const loops: Set<string>[] = [];
  let current: Set<string> | undefined;
  for (const event of events) {
    if (event.kind === 'ActionEvent' && event.thinking_blocks.length > 0) {
      if (current !== undefined) loops.push(current);
      current = new Set([event.id]);
    } else if (event.kind === 'ActionEvent' || isObservationBase(event)) {
      current?.add(event.id);
    } else if (current !== undefined) {
      loops.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) loops.push(current);
  return loops;
}

const toolLoopAtomicity: Property = (view, all) => {
  const loops = toolLoops(all);
  const viewIds = new Set(view.map((event) => event.id));
  const remove = new Set<string>();
  for (const event of view) {
    if (remove.has(event.id)) continue;
    const loop = loops.find((candidate) => candidate.has(event.id));
    if (loop === undefined) continue;
    if (![...loop].every((id) => viewIds.has(id))) for (const id of loop) if (viewIds.has(id)) remove.add(id);
  }
  return remove;
};

const PROPERTIES: Property[] = [observationUniqueness, batchAtomicity, toolCallMatching, toolLoopAtomicity];
