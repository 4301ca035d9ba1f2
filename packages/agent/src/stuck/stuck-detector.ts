import type { AnyEvent } from '@x/events';
import { type ActionErrorNudge, findActionErrorNudge } from './action-error-nudge.js';
import { detectStuckPattern, type StuckPattern } from './is-stuck.js';
import { resolveStuckThresholds, type StuckThresholds, type StuckThresholdsInput } from './stuck-thresholds.js';
import { stuckWindow } from './stuck-window.js';

/**
 * Stuck detection for one conversation: thresholds validated once, plus the memory of which error
 * streaks were already nudged (so a streak that stays frozen is not nudged again).
 */
export class StuckDetector {
  readonly thresholds: StuckThresholds;
  readonly #nudgedErrorIds = new Set<string>();

  /** Throws `InvalidStuckThresholdsError` when a threshold is not an integer ≥ 1. */
  constructor(thresholds: StuckThresholdsInput = {}) {
    this.thresholds = resolveStuckThresholds(thresholds);
  }

  /** The stuck pattern at the end of `events` (the active branch), or null. */
  isStuck(events: readonly AnyEvent[]): StuckPattern | null {
    return detectStuckPattern(stuckWindow(events), this.thresholds);
  }

  /** A nudge for a fresh action-error streak, remembered so it is returned once; else null. */
  actionErrorNudge(events: readonly AnyEvent[]): ActionErrorNudge | null {
    const nudge = findActionErrorNudge(stuckWindow(events), this.thresholds, this.#nudgedErrorIds);
    if (nudge !== null) this.#nudgedErrorIds.add(nudge.errorEventId);
    return nudge;
  }
}
