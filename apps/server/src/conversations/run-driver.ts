import { AgentError, type Conversation } from '@x/agent';
import { assertWorkspaceRootExists } from '../workspace/existing-workspace-root.js';
import { assertMayConfirm } from './approval-gate.js';
import { ConversationBusyError } from './errors/conversation-busy-error.js';
import { ConversationDeletedError } from './errors/conversation-deleted-error.js';
import type { ManagedConversationDeps } from './managed-conversation-deps.js';
import { createRunClaim, type RunClaim, type RunReservation } from './run-reservation.js';

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
  readonly #deps: Pick<
    ManagedConversationDeps,
    'logger' | 'sandboxing' | 'shared' | 'approvalDeciders' | 'workspaceRoot'
  >;
  #run: Promise<void> | undefined;
  /** Whether the run in progress has begun (recorded its first status): before that it is starting, not ending. */
  #runBegun = false;
  #rerunRequested = false;
  #afterRunDone: Promise<void> = Promise.resolve();
  /** The next run, claimed by a caller between its checks and its start (`reserve`). */
  #claim: RunClaim | undefined;

  constructor(
    host: RunDriverHost,
    deps: Pick<ManagedConversationDeps, 'logger' | 'sandboxing' | 'shared' | 'approvalDeciders' | 'workspaceRoot'>,
  ) {
    this.#host = host;
    this.#deps = deps;
  }

  /** A run is going, or claimed by a caller about to start it (`reserve`). */
  get isRunning(): boolean {
    return this.#run !== undefined || this.#claim !== undefined;
  }

  /**
   * Claims the next run, synchronously: `ConversationBusyError` (409) when a run is going or claimed. Until the
   * reservation starts its run or is released, the conversation counts as running, every other start waits for the
   * claim to settle (then finds the run going, or starts as it would have), and a second claim is refused. A face
   * checks, claims before its first await, records its turn and starts: nothing else starts a run in between. The
   * holder must not ask for another run itself (a message sent with `run`, `startRun`) before it settles.
   */
  reserve(): RunReservation {
    if (this.isRunning) throw new ConversationBusyError();
    const claim = createRunClaim();
    this.#claim = claim;
    const release = (): void => {
      if (this.#claim === claim) this.#claim = undefined;
      claim.settle();
    };
    return {
      start: async (options = {}) => {
        try {
          await this.#start(options, claim);
        } finally {
          release();
        }
      },
      release,
    };
  }

  /** Waits until no caller holds a claim on the next run (each one has begun its run or given up). */
  async #claimsSettled(): Promise<void> {
    while (this.#claim !== undefined) await this.#claim.settled;
  }

  /**
   * After a user message sent with `run`: starts a run, or schedules one after the run in progress. A run still
   * stepping (or starting) takes the message at its next step. One that has stopped stepping (paused, waiting for
   * confirmation) is only ending: the message asks for the next run, started once that one has ended, as it would be
   * a moment later (a pause asked for after the message instead stops the run, and nothing reruns).
   */
  async runAfterMessage(): Promise<void> {
    for (;;) {
      await this.#claimsSettled();
      if (this.#run !== undefined && (!this.#runBegun || this.#host.current()?.state.execution_status === 'running')) {
        this.#rerunRequested = true;
        return;
      }
      // Another replica may run it: its run folds the message at its next step, as a run in this process would. One
      // that is just ending releases the lease in a moment, so wait for it a little.
      const elsewhere = this.#run === undefined && this.#deps.shared !== undefined;
      if (await this.#startUnlessTaken(elsewhere ? { leaseWaitMs: SHARED_RUN_WAIT_MS } : {}, elsewhere)) return;
    }
  }

  /**
   * Starts a run for what was just recorded (a message, accepted actions): true when a run takes it, false when a
   * claim taken meanwhile refused the start (the caller waits for that claim and decides again: it may be given up
   * without a run). A start refused by a run registered after the recording (another request's, a scheduled re-run)
   * is no failure: that run takes what was recorded, so its caller is never told "busy" for a turn that is answered.
   */
  async #startUnlessTaken(options: { leaseWaitMs?: number }, elsewhere: boolean): Promise<boolean> {
    try {
      await this.start(options);
      return true;
    } catch (error) {
      if (elsewhere && isHeldElsewhere(error)) return true;
      if (!ConversationBusyError.isInstance(error)) throw error;
      return this.#claim === undefined;
    }
  }

  /**
   * Runs the accepted pending actions, unless a run that is still stepping here takes them (its next step does) or,
   * on replicas, a run in another replica does. A run here that has stopped stepping is waited for (see `start`).
   */
  async acceptPendingActions(options: { leaseWaitMs?: number } = {}): Promise<void> {
    const state = () => this.#host.current()?.state;
    for (;;) {
      await this.#claimsSettled();
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
      if (await this.#startUnlessTaken(options, this.#deps.shared !== undefined)) return;
    }
  }

  /**
   * Starts a run in the background. Resolves once the run has begun (status `running`) or already
   * ended, so a client that reads the conversation next sees it. Throws `ConversationBusyError` (409)
   * when a run is in progress.
   */
  async start(options: { leaseWaitMs?: number } = {}): Promise<void> {
    await this.#claimsSettled();
    await this.#start(options, undefined);
  }

  /**
   * What a run of `conversation` is refused for: 403 to a caller outside `approvalDeciders` whose run would approve
   * pending actions; 409 `workspace_gone` once the server's workspace root is deleted (its tools work in a directory
   * under it: the run would pay for model calls whose tools can only fail).
   */
  async assertMayRun(conversation: Conversation): Promise<void> {
    await assertMayConfirm(conversation, this.#deps.approvalDeciders);
    if (this.#deps.workspaceRoot !== undefined) await assertWorkspaceRootExists(this.#deps.workspaceRoot);
  }

  /** Starts a run: `claim` is the reservation it fulfils, undefined for a start that claimed nothing. */
  async #start(options: { leaseWaitMs?: number }, claim: RunClaim | undefined): Promise<void> {
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
    await this.assertMayRun(conversation);
    // Nothing is awaited from this check until the run is registered: two starts that opened the conversation
    // together (or waited for the same ending run) cannot both pass it, nor one that a claim was taken against since.
    if (this.#run !== undefined || this.#claim !== claim || conversation.isRunning) throw new ConversationBusyError();
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
          // A run another caller started (or claimed) meanwhile takes the message the re-run was for.
          if (ConversationBusyError.isInstance(error)) return;
          this.#deps.logger.warn({ conversationId: this.#host.id, err: error }, 'scheduled re-run could not start');
        });
      }
    }
  }

  /** Resolves when the background run (if any) has ended, or after `timeoutMs`; true when it ended. */
  async waitFor(timeoutMs: number): Promise<boolean> {
    if (!this.isRunning) return true;
    // A claimed run counts as running: its run, once begun, is waited for as any other.
    const runEnded = async (): Promise<true> => {
      await this.#claimsSettled();
      await this.#run;
      return true;
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const ended = await Promise.race([runEnded(), timeout]);
    clearTimeout(timer);
    return ended;
  }
}
