/**
 * The abort of the run in progress: `Conversation.interrupt()` and the caller's `run({ signal })` both end
 * in it, so the model call and the running tools see one signal, and the run loop records one interrupt.
 */
export class RunAbort {
  #controller: AbortController | undefined;

  /** Starts a run's abort; the returned signal also follows `external` (the caller's `run({ signal })`). */
  begin(external: AbortSignal | undefined): AbortSignal {
    const controller = new AbortController();
    this.#controller = controller;
    return external === undefined ? controller.signal : AbortSignal.any([external, controller.signal]);
  }

  /** The run ended: a later `abort()` has nothing to cancel. */
  end(): void {
    this.#controller = undefined;
  }

  /** Aborts the run in progress; false when there is none. */
  abort(): boolean {
    const controller = this.#controller;
    if (controller === undefined) return false;
    controller.abort(new DOMException('The conversation was interrupted', 'AbortError'));
    return true;
  }
}
