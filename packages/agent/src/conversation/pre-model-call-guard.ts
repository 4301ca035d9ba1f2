import type { RunHost } from './run-host.js';

/** Whether the run may go on to its next step (and model call), or stops, and why. */
export type PreModelCallVerdict = { proceed: true } | { proceed: false; reason: string };

/**
 * Asked before every agent step of a run, the point where a step may call the model. A guard that answers
 * `proceed: false` stops the run before the call; it records its reason itself (an event in the log) before
 * answering. The money budget (`budgets/`) is the one guard: it lets a step that only executes pending actions
 * through (it calls no model).
 */
export async function preModelCallGuard(host: RunHost): Promise<PreModelCallVerdict> {
  return host.budget === undefined ? { proceed: true } : host.budget.guard();
}
