import { RemoteAuthError } from '../errors/remote-auth-error.js';
import { RemoteConversationNotFoundError } from '../errors/remote-conversation-not-found-error.js';
import { RemoteRequestError } from '../errors/remote-request-error.js';
import { RemoteRunError } from '../errors/remote-run-error.js';
import { RemoteTimeoutError } from '../errors/remote-timeout-error.js';
import type { RemoteRunResult } from '../remote-conversation-options.js';

/** The statuses a run starts from by setting `running` (the agent's run loop), which the socket then shows. */
const RUN_SETS_RUNNING: ReadonlySet<unknown> = new Set(['idle', 'paused', 'error', 'stuck']);

/** How long to wait for the ConversationErrorEvent that follows a field-level `error` status. */
const ERROR_EVENT_WAIT_MS = 1_000;

export interface RunWaiterInit {
  conversationId: string;
  /** The cached status when the wait was armed. */
  statusNow: unknown;
  lastError(): string | undefined;
  poll(): Promise<Record<string, unknown>>;
  pollIntervalMs: number;
  timeoutMs: number;
  snapshotGraceMs: number;
}

/**
 * The blocking wait of `RemoteConversation.run()` (reference §11.6). It completes on a full_state
 * snapshot published after it was armed whose status is not `running`; a field-level `error` or
 * `stuck` fails it at once (after the error event that follows `error`). REST polling is the fallback
 * for snapshots that never come: a terminal status seen for `snapshotGraceMs` is accepted; 404 and
 * other 4xx (not 429) fail; 5xx, 429 and network errors are retried.
 */
export class RunWaiter {
  readonly result: Promise<RemoteRunResult>;
  readonly #init: RunWaiterInit;
  #resolve: (result: RemoteRunResult) => void = () => undefined;
  #reject: (error: unknown) => void = () => undefined;
  #settled = false;
  #sawRunning: boolean;
  #started = false;
  /** The stream dropped after the run request was answered: its reconnection's first snapshot is later than both. */
  #droppedSinceStarted = false;
  #runningSinceArmed = false;
  #terminalSince: number | undefined;
  #errorTimer: ReturnType<typeof setTimeout> | undefined;
  #pollTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #timeoutTimer: ReturnType<typeof setTimeout>;

  constructor(init: RunWaiterInit) {
    this.#init = init;
    this.#sawRunning = init.statusNow === 'running';
    this.result = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.result.catch(() => undefined);
    this.#timeoutTimer = setTimeout(
      () => this.fail(new RemoteTimeoutError(`the run of conversation ${init.conversationId} to end`, init.timeoutMs)),
      init.timeoutMs,
    );
  }

  /** The run request was answered: start the REST fallback. */
  started(): void {
    this.#started = true;
    this.#schedulePoll();
  }

  /** A published full_state snapshot (not the one a connection starts with). */
  onSnapshot(status: unknown): void {
    if (typeof status !== 'string') return;
    if (status === 'running') {
      this.#sawRunning = true;
      this.#runningSinceArmed = true;
    } else if (this.#runningSinceArmed || (this.#started && !RUN_SETS_RUNNING.has(this.#init.statusNow))) {
      // A terminal snapshot ends the wait only once this run was seen running, where the run announces itself: the
      // end of the previous run (the paused step that just finished) may be published before this run starts yet
      // reach the socket after the run request is answered, which comes back on another connection. From another
      // status (finished, waiting for confirmation) a run may end without ever running: its answer is enough.
      this.#finish(status);
    }
  }

  /** The event stream dropped (its reconnection will start with a snapshot of the state then). */
  onDisconnect(): void {
    if (this.#started) this.#droppedSinceStarted = true;
  }

  /**
   * The snapshot a reconnection starts with. Once the run request was answered before the drop, it shows the state
   * after that request, which the server answers once the run has begun or ended: unless `running`, the run ended
   * while the stream was down, and its post-run snapshot was lost with the connection. `error` waits for the error
   * event, which comes next with the events replayed.
   */
  onReconnectSnapshot(status: unknown): void {
    if (!this.#droppedSinceStarted || typeof status !== 'string') return;
    this.#droppedSinceStarted = false;
    if (status === 'running' || status === 'error') this.onStatus(status);
    else this.#finish(status);
  }

  /** A field-level `execution_status` update. */
  onStatus(status: unknown): void {
    if (status === 'running') {
      this.#sawRunning = true;
      this.#runningSinceArmed = true;
    } else if (status === 'stuck') {
      this.#finish('stuck');
    } else if (status === 'error' && this.#errorTimer === undefined) {
      this.#errorTimer = setTimeout(() => this.#finish('error'), ERROR_EVENT_WAIT_MS);
    }
  }

  /** A ConversationErrorEvent arrived. */
  onError(): void {
    if (this.#errorTimer !== undefined) this.#finish('error');
  }

  fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.dispose();
    this.#reject(error);
  }

  dispose(): void {
    clearTimeout(this.#timeoutTimer);
    clearTimeout(this.#errorTimer);
    clearTimeout(this.#pollTimer);
  }

  #finish(status: string): void {
    if (this.#settled) return;
    if (status === 'error' || status === 'stuck') {
      this.fail(
        new RemoteRunError({ conversationId: this.#init.conversationId, status, detail: this.#init.lastError() }),
      );
      return;
    }
    this.#settled = true;
    this.dispose();
    this.#resolve({ status });
  }

  #schedulePoll(): void {
    if (this.#settled) return;
    this.#pollTimer = setTimeout(() => void this.#poll(), this.#init.pollIntervalMs);
  }

  async #poll(): Promise<void> {
    try {
      const status = (await this.#init.poll()).execution_status;
      if (status === 'running') {
        this.#sawRunning = true;
        this.#terminalSince = undefined;
      } else if (typeof status === 'string') {
        if ((status === 'error' || status === 'stuck') && this.#sawRunning) this.onStatus(status);
        this.#terminalSince ??= Date.now();
        if (Date.now() - this.#terminalSince >= this.#init.snapshotGraceMs) this.#finish(status);
      }
    } catch (error) {
      if (isFatal(error)) {
        this.fail(error);
        return;
      }
    }
    this.#schedulePoll();
  }
}

function isFatal(error: unknown): boolean {
  if (RemoteConversationNotFoundError.isInstance(error) || error instanceof RemoteAuthError) return true;
  if (error instanceof RemoteRequestError) return error.status >= 400 && error.status < 500 && error.status !== 429;
  return false;
}
