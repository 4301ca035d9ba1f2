// The public exports of stuck/, re-exported by the package root.
export { type ActionErrorNudge, actionErrorNudge } from './action-error-nudge.js';
export { stuckEventsEqual } from './event-equality.js';
export { InvalidStuckThresholdsError } from './invalid-stuck-thresholds-error.js';
export { isStuck, type StuckPattern } from './is-stuck.js';
export { StuckDetector } from './stuck-detector.js';
export {
  DEFAULT_STUCK_THRESHOLDS,
  resolveStuckThresholds,
  type StuckThresholds,
  type StuckThresholdsInput,
  stuckThresholdsSchema,
} from './stuck-thresholds.js';
export { STUCK_WINDOW_SIZE, stuckWindow } from './stuck-window.js';
