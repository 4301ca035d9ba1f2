import { type AnyEvent, createEvent } from '@x/events';
import type { LLM, LLMResponse } from '../llm/llm.js';
import { accumulateStats } from '../state/accumulate-stats.js';
import type { ConversationState } from '../state/conversation-state.js';

/** Where a conversation's stats updates go (its `ConversationEvents`). */
export interface StatsSink {
  latestStats(): ConversationState['stats'];
  hold(update: AnyEvent): void;
  emit(event: AnyEvent): Promise<void>;
}

/**
 * Records an LLM response's usage and cost as a stats update. `hold`: kept for the step's next event, to be
 * written in one round with it (the caller decides whether the log can: `appendMany`, and with other writers one
 * that lands the batch at the expected index, fenced, in one write).
 */
export async function recordResponse(
  sink: StatsSink,
  call: { llm: LLM; response: LLMResponse; hold: boolean },
): Promise<void> {
  const latest = sink.latestStats();
  const stats = accumulateStats(latest, call.llm, call.response);
  // A response without usage or cost changes nothing in the snapshot: record no event for it.
  if (JSON.stringify(stats) === JSON.stringify(latest)) return;
  const update = createEvent('ConversationStateUpdateEvent', { key: 'stats', value: stats });
  if (call.hold) {
    sink.hold(update);
    return;
  }
  await sink.emit(update);
}
