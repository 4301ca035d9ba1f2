import type { ConversationStatsSnapshot } from '../llm/metrics.js';

/**
 * Stats snapshots known to equal their own parse by `conversationStateSchema.shape.stats` (same fields, same
 * order): the fold's parse output, and the snapshot `recordResponse` built from one of those and a response whose
 * usage and cost it validated. The fold takes such a value as it is instead of parsing it again at every step.
 * Identity, not content: an object nobody here marked (a value read from a log, a caller's) is always parsed.
 */
const validated = new WeakSet<object>();

export function markValidatedStats(stats: ConversationStatsSnapshot): void {
  validated.add(stats);
}

export function isValidatedStats(value: unknown): value is ConversationStatsSnapshot {
  return typeof value === 'object' && value !== null && validated.has(value);
}
