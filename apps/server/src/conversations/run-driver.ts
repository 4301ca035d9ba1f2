import { AgentError, type Conversation } from '@x/agent';
import { assertMayConfirm } from './approval-gate.js';
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
  readonly #deps: Pick<ManagedConversationDeps, 'logger' | 'sandboxing' | 'shared' | 'approvalDeciders'>;
  #run: Promise<void> | undefined;
  /** Whether the run in progress has begun (recorded its first status): before that it is starting, not ending. */
  #runBegun = false;
  #rerunRequested = false;
  #afterRunDone: Promise<void> = Promise.resolve();

  constructor(
    host: RunDriverHost,
    deps: Pick<ManagedConversationDeps, 'logger' | 'sandboxing' | 'shared' | 'approvalDeciders'>,
  ) {
    this.#host = host;
    this.#deps = deps;
  }

  get isRunning(): boolean {
    return this.#run !== undefined;
  }

  /**
   * After a user message sent with `run`: starts a run, or schedules one after the run in progress. A run still
   * stepping (or starting) takes the message at its next step. One that has stopped stepping (paused, waiting for
   * confirmation) is only ending: the message asks for the next run, started once that one has ended, as it would be
   * a moment later (a pause asked for after the message instead stops the run, and nothing reruns).
   */
  async runAfterMessage(): Promise<void> {
    if (this.isRunning && (!this.#runBegun || this.#host.current()?.state.execution_status === 'running')) {
      this.#rerunRequested = true;
    } else if (this.isRunning) {
      // Another start may come first (a client's run, the ending run's scheduled re-run): that run takes the message.
      await this.start().catch((error: unknown) => {
        if (!ConversationBusyError.isInstance(error)) throw error;
      });
    } else if (this.#deps.shared === undefined) await this.start();
    else {
      // Another replica may run it: its run folds the message at its next step, as a run in this process
      // would. One that is just ending releases the lease in a moment, so wait for it a little.
      await this.start({ leaseWaitMs: SHARED_RUN_WAIT_MS }).catch((error: unknown) => {
        if (!isHeldElsewhere(error)) throw error;
      });
    }
  }

  /**
   * Runs the accepted pending actions, unless a run that is still stepping here takes them (its next step does) or,
   * on replicas, a run in another replica does. A run here that has stopped stepping is waited for (see `start`).
   */
  async acceptPendingActions(options: { leaseWaitMs?: number } = {}): Promise<void> {
    const state = () => this.#host.current()?.state;
    if (this.#run !== undefined) {
      // A run that is starting takes the accepted actions at its first step, as one still stepping does.
      if (!this.#runBegun || state()?.execution_status === 'running') return;
      const accepted = new Set(state()?.pending_actions.map((pending) => pending.action_id));
      await this.#waitForEndingRun();
      // That run may have taken the accepted actions and stopped at new ones: a run started now would confirm
      // those implicitly (reference `run` semantics), and nobody accepted them.
      const unseen = state()?.pending_actions.some((pending) => !accepted.has(pending.action_id));
      if (this.#run !== undefined || unseen === true) return;
    }
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
    // A run here whose status is no longer `running` (paused, finished, waiting for confirmation, idle after a new
    // message, stopped) has stopped stepping and is only ending: its checkpoint and run record are being written.
    // A client that saw that status may start the next run at once (the reference allows it), so wait for the
    // ending run instead of refusing with 409. Its post-run snapshot is published first, so that a client waiting
    // on the new run does not take it for its end. A run that has not begun yet (its status is still the one before
    // it) is starting, not ending: a second start is refused as during the run.
    if (this.#runBegun && conversation.state.execution_status !== 'running') await this.#waitForEndingRun();
    await assertMayConfirm(conversation, this.#deps.approvalDeciders);
    // Nothing is awaited from this check until the run is registered: two starts that opened the conversation
    // together (or waited for the same ending run) cannot both pass it.
    if (this.#run !== undefined || conversation.isRunning) throw new ConversationBusyError();
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      markStarted = () => {
        this.#runBegun = true;
        resolve();
      };
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
        this.#runBegun = false;
        this.#afterRunDone = this.#afterRun();
      });
    await started;
    begun = true;
    if (refused !== undefined) throw refused;
  }

  /**
   * Waits for the run in progress here (if any) to end, and for what follows its end (meta, snapshot, a re-run's
   * start). A re-run started then is not waited for: the caller finds it running.
   */
  async #waitForEndingRun(): Promise<void> {
    if (this.#run === undefined) return;
    await this.#run;
    await this.#afterRunDone;
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
