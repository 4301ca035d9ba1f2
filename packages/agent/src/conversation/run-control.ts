import { type AnyEvent, createEvent } from '@x/events';
import type { ConversationState } from '../state/conversation-state.js';
import type { RunResult } from './conversation-options.js';
import { ConversationAlreadyRunningError } from './errors/conversation-already-running-error.js';
import { RunAbort } from './run-abort.js';

/** The run in progress in this process (one at a time) and its abort (`interrupt`). */
export class RunControl {
  #running: Promise<RunResult> | undefined;
  readonly #abort = new RunAbort();
  /** A `pause()` while the run was approving the waiting actions (see `requestPause`). */
  #pauseRequested = false;

  get isRunning(): boolean {
    return this.#running !== undefined;
  }

  /**
   * Starts a run: `body` gets the signal that follows both `interrupt()` and the caller's `external` one;
   * `release` runs once it ended, however. Throws `ConversationAlreadyRunningError` during another run.
   */
  start(
    conversationId: string,
    external: AbortSignal | undefined,
    body: (signal: AbortSignal) => Promise<RunResult>,
    release: () => Promise<void>,
  ): Promise<RunResult> {
    if (this.#running !== undefined) throw new ConversationAlreadyRunningError(conversationId);
    this.#pauseRequested = false;
    const running = body(this.#abort.begin(external)).finally(async () => {
      this.#abort.end();
      this.#running = undefined;
      await release();
    });
    this.#running = running;
    return running;
  }

  /**
   * A pause asked for while the run in progress still waits for confirmation (it is about to approve the waiting
   * actions, or its rules are deciding them): `pause()` alone does nothing while waiting, so the run records it once
   * it has approved them, before its step (`takePauseRequest`). False when no run is in progress.
   */
  requestPause(): boolean {
    if (this.#running === undefined) return false;
    this.#pauseRequested = true;
    return true;
  }

  /** Whether a pause was asked for (`requestPause`) since the run last looked; clears it. */
  takePauseRequest(): boolean {
    const requested = this.#pauseRequested;
    this.#pauseRequested = false;
    return requested;
  }

  /** Aborts the run in progress; false when there is none. */
  abort(): boolean {
    return this.#abort.abort();
  }

  /** Resolves once the run in progress (if any) ended, however. */
  async ended(): Promise<void> {
    await this.#running?.catch(() => undefined);
  }
}

/** What pausing needs of the conversation. */
export interface PauseHost {
  state(): ConversationState;
  emit(event: AnyEvent): Promise<void>;
  checkpointUnlessRunning(): Promise<void>;
}

/** Pauses between steps: records a PauseEvent once; no effect when waiting, finished, errored or stuck. */
export async function pause(host: PauseHost): Promise<void> {
  const status = host.state().execution_status;
  if (status !== 'idle' && status !== 'running') return;
  // Both events are queued before this function first yields, so a run loop that settles the queue
  // before its next step sees the pause even when pause() is called from inside a step.
  const pauseRecorded = host.emit(createEvent('PauseEvent', {}));
  const statusRecorded = host.emit(
    createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'paused' }),
  );
  await pauseRecorded;
  await statusRecorded;
  await host.checkpointUnlessRunning();
}
