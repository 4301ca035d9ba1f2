import type { RunHost } from './run-host.js';

/** Whether the run may go on to its next step (and model call), or stops, and why. */
export type PreModelCallVerdict = { proceed: true } | { proceed: false; reason: string };

/**
 * SEAM (budgets, issue 31): asked before every agent step of a run, the point where a step may call the model.
 * A guard that answers `proceed: false` stops the run before the call (a money budget spent); it records its
 * reason itself (an event in the log) before answering. None is configured yet: every step proceeds. A step
 * that executes pending actions makes no model call; a guard that must tell can look at the pending actions.
 */
export async function preModelCallGuard(_host: RunHost): Promise<PreModelCallVerdict> {
  return { proceed: true };
}
