import { yieldToEventLoop } from '../internal/yield-to-event-loop.js';

/** Steps a run takes at most between two turns of the event loop. */
export const YIELD_AFTER_STEPS = 16;
/** Milliseconds a run holds the thread at most (plus the step under way) before it lets the event loop turn. */
export const YIELD_AFTER_MS = 4;

/**
 * When a run lets the event loop turn. With a memory store and a model answering without I/O (the offline model, a
 * replay, a test double) every await of a step is a microtask: without a turn the run would hold the thread to its
 * end, and timers, other conversations' runs and a server's requests would all wait. A turn per step costs ~30 µs
 * (a tenth of the memory loop's step), so the run turns the loop every `YIELD_AFTER_STEPS` steps, or sooner once
 * `YIELD_AFTER_MS` have passed since the last turn (slow steps). The step count alone bounds the gap, whatever the
 * clock says; the clock only adds turns.
 */
export class EventLoopTurns {
  readonly #now: () => number;
  #steps = 0;
  #since: number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#since = now();
  }

  /** Before a step after the first: lets the event loop turn when the run has held the thread long enough. */
  async between(): Promise<void> {
    this.#steps += 1;
    if (this.#steps < YIELD_AFTER_STEPS && this.#now() - this.#since < YIELD_AFTER_MS) return;
    await yieldToEventLoop();
    this.#steps = 0;
    this.#since = this.#now();
  }
}
