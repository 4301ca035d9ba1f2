import { AgentError, type Conversation } from '@x/agent';
import { ConversationBusyError } from './errors/conversation-busy-error.js';
import { ConversationDeletedError } from './errors/conversation-deleted-error.js';
import type { ManagedConversationDeps } from './managed-conversation-deps.js';

/** How long a message sent with `run` waits for another replica's run that is ending to release the lease. */
const SHARED_RUN_WAIT_MS = 1_000;

/** Another replica (or process) holds the conversation's lease. */
function isHeldElsewhere(error: unknown): boolean {
  return AgentError.isInstance(error) && error.code === 'conversation_running';
}

/** What the run driver reads of the conversation it runs (the ManagedConversation's side). */
export interface RunDriverHost {
  readonly id: string;
  isDeleted(): boolean;
  /** Opens (resumes) the conversation when needed. */
  open(): Promise<Conversation>;
  /** The open conversation, without opening it. */
  current(): Conversation | undefined;
  saveMeta(): Promise<void>;
  publishFullState(): void;
}

/**
 * The background run of one server conversation: starts it, tells when it has begun or ended, and starts the
 * run a message asked for while another was going, once that one has ended.
 */
export class RunDriver {
  readonly #host: RunDriverHost;
  readonly #deps: Pick<ManagedConversationDeps, 'logger' | 'sandboxing' | 'shared'>;
  #run: Promise<void> | undefined;
  #rerunRequested = false;
  #afterRunDone: Promise<void> = Promise.resolve();

  constructor(host: RunDriverHost, deps: Pick<ManagedConversationDeps, 'logger' | 'sandboxing' | 'shared'>) {
    this.#host = host;
    this.#deps = deps;
  }

  get isRunning(): boolean {
    return this.#run !== undefined;
  }

  /** After a user message sent with `run`: starts a run, or schedules one after the run in progress. */
  async runAfterMessage(): Promise<void> {
    if (this.isRunning) this.#rerunRequested = true;
    else if (this.#deps.shared === undefined) await this.start();
    else {
      // Another replica may run it: its run folds the message at its next step, as a run in this process
      // would. One that is just ending releases the lease in a moment, so wait for it a little.
      await this.start({ leaseWaitMs: SHARED_RUN_WAIT_MS }).catch((error: unknown) => {
        if (!isHeldElsewhere(error)) throw error;
      });
    }
  }

  /** Runs the accepted pending actions, unless a run is already going here or, on replicas, in another replica. */
  async acceptPendingActions(options: { leaseWaitMs?: number } = {}): Promise<void> {
    if (this.isRunning) return;
    await this.start(options).catch((error: unknown) => {
      if (this.#deps.shared === undefined || !isHeldElsewhere(error)) throw error;
    });
  }

  /**
   * Starts a run in the background. Resolves once the run has begun (status `running`) or already
   * ended, so a client that reads the conversation next sees it. Throws `ConversationBusyError` (409)
   * when a run is in progress.
   */
  async start(options: { leaseWaitMs?: number } = {}): Promise<void> {
    const conversation = await this.#host.open();
    if (this.#host.isDeleted()) throw new ConversationDeletedError(this.#host.id);
    this.#deps.sandboxing.assertCanRun();
    // Resuming right after a pause: the paused step is still finishing; wait for it, then run again.
    // Its post-run snapshot is published first, so that a client waiting on the new run does not take it for its end.
    while (this.#run !== undefined && conversation.state.execution_status === 'paused') {
      await this.#run;
      await this.#afterRunDone;
    }
    if (this.#run !== undefined || conversation.isRunning) throw new ConversationBusyError();
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const unsubscribe = conversation.subscribe((event) => {
      if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status') markStarted();
    });
    this.#deps.logger.info({ conversationId: this.#host.id }, 'run started');
    let begun = false;
    let refused: unknown;
    this.#run = conversation
      .run(options.leaseWaitMs === undefined ? {} : { leaseWaitMs: options.leaseWaitMs })
      .then(
        (result) => {
          this.#deps.logger.info({ conversationId: this.#host.id, ...result }, 'run ended');
        },
        (error: unknown) => {
          // Another replica holds the conversation's lease: the caller gets the 409, not a silent no-op.
          if (!begun && AgentError.isInstance(error) && error.code === 'conversation_running') refused = error;
          else this.#deps.logger.warn({ conversationId: this.#host.id, err: error }, 'run failed');
        },
      )
      .finally(() => {
        unsubscribe();
        markStarted();
        this.#run = undefined;
        this.#afterRunDone = this.#afterRun();
      });
    await started;
    begun = true;
    if (refused !== undefined) throw refused;
  }

  async #afterRun(): Promise<void> {
    await this.#host.saveMeta().catch(() => undefined);
    this.#host.publishFullState();
    const conversation = this.#host.current();
    if (this.#rerunRequested && conversation !== undefined) {
      this.#rerunRequested = false;
      if (conversation.state.execution_status === 'idle') {
        await this.start().catch((error: unknown) => {
          this.#deps.logger.warn({ conversationId: this.#host.id, err: error }, 'scheduled re-run could not start');
        });
      }
    }
  }

  /** Resolves when the background run (if any) has ended, or after `timeoutMs`; true when it ended. */
  async waitFor(timeoutMs: number): Promise<boolean> {
    const run = this.#run;
    if (run === undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const ended = await Promise.race([run.then(() => true as const), timeout]);
    clearTimeout(timer);
    return ended;
  }
}
