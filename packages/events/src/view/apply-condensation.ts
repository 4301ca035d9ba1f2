import type { Condensation } from '../schemas/control-events.js';
import type { LLMConvertibleEvent } from '../schemas/events.js';
import type { CondensationSummaryEvent } from '../schemas/llm-convertible-events.js';

/** Id of the summary event a Condensation inserts (deterministic, so a later one can forget it). */
export function condensationSummaryId(condensationId: string): string {
  return `${condensationId}-summary`;
}

/**
 * `Condensation.apply` (reference §6.1): drops the forgotten ids (unknown ids are ignored), then, only
 * when both `summary` and `summary_offset` are set, inserts a CondensationSummaryEvent at the offset
 * of the filtered list (an offset past the end appends). Returns a new array.
 */
export function applyCondensation(
  events: readonly LLMConvertibleEvent[],
  condensation: Condensation,
): LLMConvertibleEvent[] {
  const forgotten = new Set(condensation.forgotten_event_ids);
  const kept = forgotten.size === 0 ? [...events] : events.filter((event) => !forgotten.has(event.id));
  if (condensation.summary !== undefined && condensation.summary_offset !== undefined) {
    const summary: CondensationSummaryEvent = Object.freeze({
      id: condensationSummaryId(condensation.id),
      timestamp: condensation.timestamp,
      source: condensation.source,
      summary: condensation.summary,
      kind: 'CondensationSummaryEvent',
    });
    kept.splice(Math.min(condensation.summary_offset, kept.length), 0, summary);
  }
  return kept;
}
