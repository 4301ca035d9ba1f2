import { z } from 'zod';
import { InvalidStuckThresholdsError } from './invalid-stuck-thresholds-error.js';

const threshold = z.number().int().min(1);

/**
 * How many repetitions make each stuck pattern (reference §10 `stuck_detection_thresholds`).
 * `contextWindowErrorLoop` is ours: the reference only has a placeholder for that pattern.
 */
export const stuckThresholdsSchema = z.object({
  /** Identical action followed by identical observation, this many times in a row. */
  actionObservation: threshold.default(4),
  /** Identical action answered by an AgentErrorEvent: nudged at this many, stuck above it. */
  actionError: threshold.default(3),
  /** Agent messages in a row without any action in between. */
  monologue: threshold.default(3),
  /** Actions and results alternating A, B, A, B... over this many actions and results. */
  alternatingPattern: threshold.default(6),
  /** Condensation cycles (CondensationRequest and/or Condensation) in a row with no LLM progress between them. */
  contextWindowErrorLoop: threshold.default(3),
});
export type StuckThresholds = z.infer<typeof stuckThresholdsSchema>;
export type StuckThresholdsInput = z.input<typeof stuckThresholdsSchema>;

/** `stuckThresholdsSchema.parse({})`, written out: parsing it at import cost every process ~4 ms (stuck-thresholds.test.ts checks they agree). */
export const DEFAULT_STUCK_THRESHOLDS: StuckThresholds = Object.freeze({
  actionObservation: 4,
  actionError: 3,
  monologue: 3,
  alternatingPattern: 6,
  contextWindowErrorLoop: 3,
});

/**
 * Fills defaults and validates: every threshold must be an integer ≥ 1, else
 * `InvalidStuckThresholdsError` naming each bad threshold and its value.
 */
export function resolveStuckThresholds(input: StuckThresholdsInput = {}): StuckThresholds {
  // Once per conversation: zod's compiled fast path would cost more than it saves.
  const parsed = stuckThresholdsSchema.safeParse(input, { jitless: true });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(thresholds)';
      const value = issue.path.length === 1 ? (input as Record<string, unknown>)[String(issue.path[0])] : input;
      return `${name}: expected an integer ≥ 1, got ${JSON.stringify(value)}`;
    });
    throw new InvalidStuckThresholdsError(problems);
  }
  return Object.freeze(parsed.data);
}
