import { randomUUID } from 'node:crypto';
import {
  type ActionEvent,
  type AnyEvent,
  createEvent,
  type EventTree,
  type Message,
  parentForAppend,
  ROOT_PARENT_ID,
  View,
  withParent,
} from '@x/events';
import {
  AppendConflictError,
  createFileStoreLeases,
  type EventLogLike,
  type FileStore,
  type Lease,
  type Leases,
} from '@x/store';
import type { Agent } from '../agent/agent.js';
import type { StepContext } from '../agent/step-context.js';
import { type ConfirmationPolicyInput, parseConfirmationPolicy } from '../confirmation/confirmation-policy.js';
import type { SecurityAnalyzer } from '../confirmation/security-analyzer.js';
import { type ConversationHooks, createConversationHooks } from '../hooks/conversation-hooks.js';
import { hookConfigToJSON } from '../hooks/hook-config.js';
import type { LLM, LLMResponse } from '../llm/llm.js';
import { type SandboxPolicy, sandboxPolicySchema } from '../sandbox/sandbox-policy.js';
import { type ConversationSandbox, createConversationSandbox } from '../sandboxing/conversation-sandbox.js';
import { openDefaultSandbox } from '../sandboxing/sandbox-opener.js';
import { currentSandboxPolicy, readSandboxPolicyRecord } from '../sandboxing/sandbox-policy-record.js';
import { maskStrings } from '../secrets/internal/mask-strings.js';
import { createSecretCipher, type SecretCipher } from '../secrets/secret-cipher.js';
import type { SecretInput, SecretRegistry } from '../secrets/secret-registry.js';
import { accumulateStats } from '../state/accumulate-stats.js';
import { applyEvent } from '../state/apply-event.js';
import { type ConversationState, initialConversationState } from '../state/conversation-state.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import { foldBranch } from '../state/fold-branch.js';
import { StuckDetector } from '../stuck/stuck-detector.js';
import { linkEvent } from '../telemetry/index.js';
import type { ToolConversation } from '../tools/tool.js';
import { type AnalyzerSetting, resolveAnalyzer, type SecurityAnalyzerInput } from './analyzer-setting.js';
import { buildBaseState } from './base-state.js';
import { continuesBranch, readBranch, recentBranch } from './branch-history.js';
import { openConversationLog, storeFor, toRegistry } from './conversation-defaults.js';
import { conversationFiles } from './conversation-files.js';
import type { ConversationListener, ConversationOptions, RunOptions, RunResult } from './conversation-options.js';
import { ConversationAlreadyRunningError } from './errors/conversation-already-running-error.js';
import { ConversationClosedError } from './errors/conversation-closed-error.js';
import { ConversationExistsError } from './errors/conversation-exists-error.js';
import { UnknownEventError } from './errors/unknown-event-error.js';
import type { ForkOptions } from './fork-options.js';
import { loadPersistedState } from './load-persisted-state.js';
import { answerInFlightAction } from './ownership/interrupted-action.js';
import { acquireRunLease } from './ownership/run-lease.js';
import { conversationDirName, defaultPersistenceDir, hyphenateConversationId } from './persistence-layout.js';
import { RunAbort } from './run-abort.js';
import type { RunHost } from './run-host.js';
import { runLoop } from './run-loop.js';
import { askAgent, generateTitle } from './side-questions.js';
import { startExtensions, userMessageEvent } from './start-extensions.js';
import { createStepContext } from './step-context-factory.js';
import { restoreView, writeViewCheckpoint } from './view-checkpoint/index.js';

/** How many recent events are kept in memory for stuck detection (it looks at the last 20). */
const RECENT_EVENTS = 64;

/**
 * A persistent, event-sourced conversation. Every event is appended to the EventLog before anyone sees
 * it, the state is a fold over the events (`applyEvent`), and base_state.json is a constant-size
 * checkpoint of that fold, so a step costs O(1) in the length of the history and a process killed at
 * any point resumes from its directory.
 */
export class Conversation {
  readonly id: string;
  readonly agent: Agent;
  readonly workspace: string;
  readonly store: FileStore;
  /** Directory of this conversation inside the store (`<id as 32 hex>`). */
  readonly directory: string;
  readonly log: EventLogLike;

  #state: ConversationState;
  #view: View | undefined;
  /** The tree of the whole log, kept while the view is (so branch switches are seen); built with it. */
  #tree: EventTree | undefined;
  readonly #options: ConversationOptions;
  #recent: AnyEvent[] = [];
  /** Events before this index were written before this process opened the conversation; read on first run. */
  #unreadHistoryEnd: number | undefined;
  readonly #listeners = new Set<ConversationListener>();
  readonly #secrets: SecretRegistry;
  readonly #cipher: SecretCipher | undefined;
  #analyzer: SecurityAnalyzer | undefined;
  #analyzerInput: SecurityAnalyzerInput;
  #analyzerSetting: AnalyzerSetting = 'llm';
  readonly #stuck: StuckDetector | undefined;
  readonly #persistenceDir: string;
  readonly #hooks: ConversationHooks | undefined;
  /** Where every process started for this conversation runs (terminal, hooks, MCP stdio servers). */
  readonly #sandbox: ConversationSandbox;
  #emitting: Promise<unknown> = Promise.resolve();
  /**
   * Stats updates of a step's LLM responses, held until the step's next event so that both are written in
   * one round (`EventLogLike.appendMany`: with fsync, the shared fsyncs make the pair cost one append); a
   * checkpoint (every few steps, at the end of a run, at close) writes what is left on its own.
   */
  #heldUpdates: AnyEvent[] = [];
  #running: Promise<RunResult> | undefined;
  readonly #abort = new RunAbort();
  #closed = false;
  #extensionsStarted = false;
  /** Leases the caller passed: the conversation is shared between replicas (appends at expected indices). */
  readonly #leases: Leases | undefined;
  /**
   * Who hands out the run lease, and its key: the caller's leases (keyed by the conversation's directory), else
   * the default ones, kept in the conversation's own directory (`<dir>/.lease/`, as the reference server keeps
   * its lease file there), so the persistence directory holds conversation directories only.
   */
  readonly #owners: { leases: Leases; key: string } | undefined;
  readonly #leaseWaitMs: number | undefined;
  /** The lease of the run in progress: every append is checked against it. */
  #runLease: Lease | undefined;
  /** Skills activated by this process's user messages (each activates once, reference §8.2). */
  readonly #activatedSkills = new Set<string>();

  private constructor(init: {
    options: ConversationOptions;
    store: FileStore;
    log: EventLogLike;
    state: ConversationState;
    secrets: SecretRegistry;
    cipher: SecretCipher | undefined;
    sandbox: ConversationSandbox;
  }) {
    const { options } = init;
    this.id = init.state.id;
    this.agent = options.agent;
    this.workspace = init.sandbox.workspace;
    this.#sandbox = init.sandbox;
    this.store = init.store;
    this.directory = conversationDirName(this.id);
    this.log = init.log;
    this.#options = options;
    this.#state = init.state;
    this.#secrets = init.secrets;
    this.#cipher = init.cipher;
    this.#persistenceDir = options.persistenceDir ?? defaultPersistenceDir();
    this.#analyzerInput = options.securityAnalyzer ?? 'llm';
    const { analyzer, setting } = resolveAnalyzer(this.#analyzerInput);
    this.#analyzer = analyzer;
    this.#analyzerSetting = setting;
    this.#stuck =
      options.stuckDetection === false
        ? undefined
        : new StuckDetector(typeof options.stuckDetection === 'object' ? options.stuckDetection : {});
    if (options.onEvent !== undefined) this.#listeners.add(options.onEvent);
    this.#hooks = createConversationHooks({
      hooks: options.hooks,
      hookEnv: options.hookEnv,
      sessionId: this.id,
      workspace: this.workspace,
      sandbox: () => this.#sandbox.get(),
      // A hook's output is stored like a tool's, so it is masked like one (stdout, stderr, reason, its input…).
      record: (event) =>
        this.#emit(
          event.kind === 'HookExecutionEvent' ? maskStrings(event, (text) => this.#secrets.mask(text)) : event,
        ),
      lookup: (id) => this.log.getById(id).catch(() => undefined),
      blockAction: (id, reason) => this.blockAction(id, reason),
      blockMessage: (id, reason) => this.blockMessage(id, reason),
    });
    this.#leases = options.leases === false ? undefined : options.leases;
    this.#owners =
      options.leases === false
        ? undefined
        : options.leases !== undefined
          ? { leases: options.leases, key: this.directory }
          : {
              leases: createFileStoreLeases(init.store, {
                dir: this.directory,
                ...(options.leaseTtlMs === undefined ? {} : { ttlMs: options.leaseTtlMs }),
              }),
              key: '.lease',
            };
    this.#leaseWaitMs = options.leaseWaitMs;
  }

  /** Starts a new conversation (its first event is the agent's system prompt). */
  static async create(options: ConversationOptions): Promise<Conversation> {
    const id = options.id ?? randomUUID();
    const store = storeFor(options);
    if (await store.exists(`${conversationDirName(id)}/base_state.json`)) {
      throw new ConversationExistsError(id, store.describe(conversationDirName(id)));
    }
    // No sandbox, no conversation: refused before anything is written (SandboxUnavailableError).
    const sandbox = conversationSandbox(options, sandboxPolicySchema.parse(options.sandbox ?? {}), {
      store,
      directory: conversationDirName(id),
      sinceEvent: () => 0,
    });
    await sandbox.get();
    const log = await openConversationLog(options, {
      conversationId: id,
      store,
      dir: `${conversationDirName(id)}/events`,
    }).catch(async (error: unknown) => {
      await sandbox.dispose();
      throw error;
    });
    const state = initialConversationState({
      id,
      ...(options.maxIterationsPerRun === undefined ? {} : { maxIterations: options.maxIterationsPerRun }),
      stuckDetection: options.stuckDetection !== false,
      ...(options.confirmationPolicy === undefined
        ? {}
        : { confirmationPolicy: parseConfirmationPolicy(options.confirmationPolicy) }),
    });
    const cipher = options.secretKey === undefined ? undefined : createSecretCipher(options.secretKey);
    const conversation = new Conversation({
      options,
      store,
      log,
      state,
      secrets: toRegistry(options.secrets),
      cipher,
      sandbox,
    });
    await options.agent.startExtensions(conversation.workspace, sandbox);
    await conversation.#emit(options.agent.systemPromptEvent());
    await conversation.#startExtensions();
    await conversation.checkpoint();
    return conversation;
  }

  /**
   * Reopens a persisted conversation: reads base_state.json (our checkpoint of the derived state) and
   * folds only the events appended after it, so opening costs one listing and one small read however
   * long the history is. Directories written by the reference implementation open too.
   */
  static async resume(id: string, options: Omit<ConversationOptions, 'id'>): Promise<Conversation> {
    const conversationId = hyphenateConversationId(id);
    const store = storeFor(options);
    const cipher = options.secretKey === undefined ? undefined : createSecretCipher(options.secretKey);
    const persisted = await loadPersistedState({
      store,
      id: conversationId,
      cipher,
      openLog: (location) => openConversationLog(options, location),
    });
    let state = persisted.state;
    const securityAnalyzer = options.securityAnalyzer ?? persisted.securityAnalyzer ?? 'llm';
    if (options.maxIterationsPerRun !== undefined) state = { ...state, max_iterations: options.maxIterationsPerRun };
    const secrets =
      options.secrets === undefined && persisted.secrets !== undefined
        ? persisted.secrets
        : toRegistry(options.secrets);
    // The policy given now, else the one recorded, else the default; recorded when the sandbox is first opened.
    const recorded = currentSandboxPolicy(await readSandboxPolicyRecord(store, conversationDirName(conversationId)));
    const policy =
      options.sandbox === undefined
        ? (recorded ?? sandboxPolicySchema.parse({}))
        : sandboxPolicySchema.parse(options.sandbox);
    const holder: { conversation?: Conversation } = {};
    const sandbox = conversationSandbox(options, policy, {
      store,
      directory: conversationDirName(conversationId),
      sinceEvent: () => holder.conversation?.state.event_count ?? persisted.log.length,
    });
    const conversation = new Conversation({
      options: { ...options, id: conversationId, securityAnalyzer },
      store,
      log: persisted.log,
      state,
      secrets,
      cipher,
      sandbox,
    });
    holder.conversation = conversation;
    // The recent events stuck detection needs are read when a run starts, not here: opening (for
    // inspection, a message, a state query) reads no event at all.
    conversation.#unreadHistoryEnd = persisted.log.length;
    return conversation;
  }

  /** Resumes the conversation `options.id` when it exists, else creates it. */
  static async open(options: ConversationOptions): Promise<Conversation> {
    if (options.id !== undefined) {
      const store = storeFor(options);
      const dir = conversationDirName(options.id);
      if ((await store.exists(`${dir}/base_state.json`)) || (await store.exists(`${dir}/events`))) {
        return Conversation.resume(options.id, { ...options, store });
      }
      return Conversation.create({ ...options, store });
    }
    return Conversation.create(options);
  }

  /** The derived state after the last event. */
  get state(): ConversationState {
    return this.#state;
  }

  /** The sandbox policy its tools, hooks and MCP stdio servers run under (recorded in x_sandbox_policy.json). */
  get sandboxPolicy(): SandboxPolicy {
    return this.#sandbox.policy;
  }

  /** Human-readable location of the conversation's files. */
  get location(): string {
    return this.store.describe(this.directory);
  }

  /** Whether a `run` is in progress in this process. */
  get isRunning(): boolean {
    return this.#running !== undefined;
  }

  /** Calls `listener` for every later event. Returns the unsubscribe function. */
  subscribe(listener: ConversationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Adds a user message. A finished or stuck conversation becomes idle (reference §8.2). */
  async sendMessage(message: string | Message, options: { sender?: string } = {}): Promise<void> {
    this.#assertOpen();
    const llmMessage: Message =
      typeof message === 'string'
        ? { role: 'user', content: [{ cache_prompt: false, type: 'text', text: message }], thinking_blocks: [] }
        : message;
    await this.#startExtensions();
    await this.#hooks?.sessionStart();
    await this.#emitWithHooks(
      userMessageEvent(this.agent, llmMessage, { ...options, activated: this.#activatedSkills }),
    );
    if (this.#state.execution_status === 'finished' || this.#state.execution_status === 'stuck') {
      await this.#setStatus('idle');
    }
    if (!this.isRunning) await this.checkpoint();
  }

  /**
   * Runs the agent until the conversation finishes, pauses, is interrupted, waits for confirmation, gets
   * stuck, fails or reaches the iteration limit. A failure is recorded (ConversationErrorEvent, status
   * `error`) and thrown as `ConversationRunError`; an interrupt (`interrupt()` or `options.signal`) is not a
   * failure (see `interrupt`). Only one run at a time: a second concurrent call throws
   * `ConversationAlreadyRunningError`.
   */
  async run(options: RunOptions = {}): Promise<RunResult> {
    this.#assertOpen();
    if (this.#running !== undefined) throw new ConversationAlreadyRunningError(this.id);
    const signal = this.#abort.begin(options.signal);
    const running = this.#takeRunLease(signal, options.leaseWaitMs)
      .then(async (took) => {
        // A dead owner's action waits for a human (interruptedActions: 'confirm'): nothing runs now.
        if (took === 'awaiting-human') {
          return { status: this.#state.execution_status, iterations: 0, reachedIterationLimit: false };
        }
        // Without its sandbox the run fails here, before any step (SandboxUnavailableError).
        await this.#sandbox.get();
        await this.#readRecentHistory();
        await this.#startExtensions();
        await this.#hooks?.sessionStart();
        // A lease taken over (noticed at the holder's next heartbeat) stops the run at once: the model call and
        // the tool in flight are aborted, rather than going on until the next append is refused by the fence.
        return runLoop(this.#runHost(), { ...options, signal }, this.#runLease?.signal);
      })
      .finally(async () => {
        this.#abort.end();
        this.#running = undefined;
        const lease = this.#runLease;
        this.#runLease = undefined;
        await lease?.release().catch(() => undefined);
      });
    this.#running = running;
    return running;
  }

  /**
   * Interrupts the run in progress now (reference `interrupt`): aborts the model call and the running tools
   * (the terminal kills its command), answers the actions left without a result with AgentErrorEvents, sets
   * the status `paused` and records an InterruptEvent; resolves once that is recorded. The run resolves with
   * `interrupted: true`; a later `run()` continues. Without a run in progress it pauses (`pause()`).
   */
  async interrupt(): Promise<void> {
    this.#assertOpen();
    if (!this.#abort.abort()) return this.pause();
    await this.#running?.catch(() => undefined);
  }

  /** Pauses between steps: records a PauseEvent once; no effect when waiting, finished, errored or stuck. */
  async pause(): Promise<void> {
    this.#assertOpen();
    const status = this.#state.execution_status;
    if (status !== 'idle' && status !== 'running') return;
    // Both events are queued before this method first yields, so a run loop that settles the queue
    // before its next step sees the pause even when pause() is called from inside a step.
    const pauseRecorded = this.#emit(createEvent('PauseEvent', {}));
    const statusRecorded = this.#emit(
      createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'paused' }),
    );
    await pauseRecorded;
    await statusRecorded;
    if (!this.isRunning) await this.checkpoint();
  }

  /** Answers every pending action with a UserRejectObservation; a waiting conversation becomes idle. */
  async rejectPendingActions(reason = 'User rejected the action'): Promise<void> {
    this.#assertOpen();
    // Shared by several processes or replicas: decided and recorded under the conversation's lease, on
    // the state as the log has it, so two concurrent rejections (or a rejection and a run) apply once.
    if (this.#leases !== undefined && this.#running === undefined && this.#runLease === undefined) {
      await this.#takeRunLease(undefined);
      try {
        return await this.rejectPendingActions(reason);
      } finally {
        // Set by #takeRunLease (narrowed to undefined by the check above).
        const lease = this.#runLease as Lease | undefined;
        this.#runLease = undefined;
        await lease?.release().catch(() => undefined);
      }
    }
    for (const action of await this.pendingActions()) {
      await this.#emit(
        createEvent('UserRejectObservation', {
          tool_name: action.tool_name,
          tool_call_id: action.tool_call_id,
          action_id: action.id,
          rejection_reason: reason,
        }),
      );
    }
    if (this.#state.execution_status === 'waiting_for_confirmation') await this.#setStatus('idle');
    if (!this.isRunning) await this.checkpoint();
  }

  /** Switches the confirmation policy; recorded in the log and persisted. */
  async setConfirmationPolicy(policy: ConfirmationPolicyInput): Promise<void> {
    this.#assertOpen();
    const parsed = parseConfirmationPolicy(policy);
    await this.#emit(createEvent('ConversationStateUpdateEvent', { key: 'confirmation_policy', value: parsed }));
    if (!this.isRunning) await this.checkpoint();
  }

  /**
   * Forces a condensation: records a CondensationRequest and runs exactly one agent step, which the
   * condenser answers. Throws `CondenserUnavailableError` without a condenser that handles requests.
   */
  async condense(): Promise<void> {
    const { condense } = await import('./condense.js');
    await condense(this.#runHost());
  }

  /** Answers a side question from the conversation's context. Records only the call's metrics. */
  async askAgent(question: string): Promise<string> {
    this.#assertOpen();
    return askAgent({ llm: this.agent.llm, view: await this.view(), question, recordResponse: this.#recorder });
  }

  /** Makes (and records) a title from the first user message. */
  async generateTitle(options: { maxLength?: number; llm?: LLM } = {}): Promise<string> {
    this.#assertOpen();
    const title = await generateTitle({
      conversationId: this.id,
      log: this.log,
      llm: options.llm ?? this.agent.llm,
      ...options,
      recordResponse: this.#recorder,
    });
    await this.#emit(createEvent('ConversationStateUpdateEvent', { key: 'title', value: title }));
    if (!this.isRunning) await this.checkpoint();
    return title;
  }

  /** The executable actions that have no result yet, oldest first (reference §8.4). */
  async pendingActions(): Promise<ActionEvent[]> {
    const events = await Promise.all(this.#state.pending_actions.map((pending) => this.log.getById(pending.action_id)));
    return events.filter((event): event is ActionEvent => event.kind === 'ActionEvent');
  }

  /**
   * The LLM-visible view of the active branch (the path from HEAD to the root, reference §7.7): built from
   * the log once, then kept up to date as events are emitted (O(1) per event); moving HEAD rebuilds it.
   */
  async view(): Promise<View> {
    if (this.#view === undefined) {
      // A resumed conversation reads only its view's events, when its view checkpoint matches the log
      // (and no event was applied meanwhile, which the restored view would lack).
      const state = this.#state;
      const restored = await restoreView({ store: this.store, directory: this.directory, log: this.log, state });
      if (restored !== undefined && this.#view === undefined && this.#state.event_count === state.event_count) {
        this.#view = restored;
        return restored;
      }
      if (this.#view !== undefined) return this.#view;
      const { tree, branch } = await readBranch(this.log, this.#state.leaf_event_id, this.#state.head_is_empty);
      this.#view = View.fromEvents(branch);
      this.#tree = tree;
    }
    return this.#view;
  }

  /** HEAD of the conversation tree: the event the next one will answer; undefined for an empty HEAD. */
  get leafEventId(): string | undefined {
    return this.#state.head_is_empty ? undefined : this.#state.leaf_event_id;
  }

  /**
   * The events on the active branch, root first: what the View, the LLM and the state follow. Abandoned
   * branches stay in the log (`events()`) but not here. Reads the whole log.
   */
  async activeBranch(): Promise<AnyEvent[]> {
    await this.#emitting;
    return (await readBranch(this.log, this.#state.leaf_event_id, this.#state.head_is_empty)).branch;
  }

  /**
   * Moves HEAD to `eventId` (`null`: an empty HEAD, the next event starts a new root), as the reference's
   * `navigate_to`: the next event is appended as a child of it, so later events form a sibling branch;
   * the abandoned events stay in the log but leave the view, the messages, pending actions and stuck
   * detection. Status, policy and stats are unchanged. Persisted in base_state.json (`leaf_event_id`,
   * `head_is_empty`); records no event. Throws `UnknownEventError` for an id not in the log and
   * `ConversationAlreadyRunningError` during a run.
   */
  async navigateTo(eventId: string | null): Promise<void> {
    this.#assertOpen();
    if (this.#running !== undefined) throw new ConversationAlreadyRunningError(this.id);
    await this.#emitting;
    const leaf = eventId ?? undefined;
    const { events, tree, branch } = await readBranch(this.log, leaf, eventId === null);
    if (leaf !== undefined && !tree.has(leaf)) throw new UnknownEventError(this.id, leaf);
    this.#state = foldBranch(this.#state, events, tree, leaf, eventId === null);
    this.#view = View.fromEvents(branch);
    this.#tree = tree;
    this.#recent = branch.slice(-RECENT_EVENTS);
    this.#unreadHistoryEnd = undefined;
    await this.checkpoint();
  }

  /**
   * A new conversation with this one's history, as the reference's `fork`: the events are copied
   * unchanged (same ids, same `parent_id`s, byte for byte) into a new directory of the same store; with
   * `fromEventId` only the branch from the root to that event is copied and becomes HEAD, otherwise the
   * whole log with this HEAD. The fork starts idle with the default confirmation policy, fresh stats
   * (unless `resetMetrics: false`) and no secrets unless given. This conversation is not changed.
   */
  async fork(options: ForkOptions = {}): Promise<Conversation> {
    this.#assertOpen();
    await this.#emitting;
    const { fork } = await import('./fork.js');
    // The fork shares this conversation's store and runtime settings, not its listeners.
    const { onEvent: _listener, ...inherited } = this.#options;
    return fork({
      source: this,
      sourceState: this.#state,
      options,
      open: (init) =>
        new Conversation({
          options: {
            ...inherited,
            id: init.state.id,
            agent: options.agent ?? this.agent,
            securityAnalyzer: this.#analyzerInput,
            ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
          },
          store: this.store,
          log: init.log,
          state: init.state,
          secrets: toRegistry(options.secrets),
          cipher: this.#cipher,
          // The fork runs under this conversation's policy, in a sandbox of its own.
          sandbox: conversationSandbox(this.#options, this.#sandbox.policy, {
            store: this.store,
            directory: conversationDirName(init.state.id),
            sinceEvent: () => 0,
          }),
        }),
      emit: (conversation, event) => conversation.#emit(event),
      openLog: (location) => openConversationLog(this.#options, location),
    });
  }

  /**
   * Adds or replaces secrets (reference `update_secrets`): a string or `{ value, description }` per
   * name. They are offered to tools by name and masked in output, never written to events; base_state.json
   * keeps them encrypted with `secretKey`, redacted otherwise.
   */
  async updateSecrets(secrets: Readonly<Record<string, SecretInput>>): Promise<void> {
    this.#assertOpen();
    this.#secrets.update(secrets);
    await this.checkpoint();
  }

  /**
   * Sets the security analyzer for the next steps (reference `set_security_analyzer`): `'llm'` trusts the
   * risk the model declares, a function rates each action, `'none'`/`null` turns analysis off (and the
   * `security_risk` argument with it). Persisted as base_state.json's `security_analyzer` (a function
   * cannot be: resuming without one uses `'llm'`).
   */
  async setSecurityAnalyzer(analyzer: SecurityAnalyzerInput): Promise<void> {
    this.#assertOpen();
    this.#analyzerInput = analyzer;
    const resolved = resolveAnalyzer(analyzer);
    this.#analyzer = resolved.analyzer;
    this.#analyzerSetting = resolved.setting;
    await this.checkpoint();
  }

  /** Whether the confirmation policy can ask at all (it is not NeverConfirm). */
  get confirmationPolicyActive(): boolean {
    return this.#state.confirmation_policy.kind !== 'NeverConfirm';
  }

  /** Confirmation mode: a security analyzer is set and the confirmation policy is active (reference). */
  get isConfirmationModeActive(): boolean {
    return this.#analyzer !== undefined && this.confirmationPolicyActive;
  }

  /** Records that a hook blocked the action `actionId` (reference `block_action`); persisted. */
  async blockAction(actionId: string, reason: string): Promise<void> {
    await this.#setBlocked('blocked_actions', { ...this.#state.blocked_actions, [actionId]: reason });
  }

  /** Removes and returns the reason a hook blocked `actionId`, undefined if it was not blocked. */
  async popBlockedAction(actionId: string): Promise<string | undefined> {
    return this.#popBlocked('blocked_actions', actionId);
  }

  /** Records that a hook blocked the user message `messageId` (reference `block_message`); persisted. */
  async blockMessage(messageId: string, reason: string): Promise<void> {
    await this.#setBlocked('blocked_messages', { ...this.#state.blocked_messages, [messageId]: reason });
  }

  /** Removes and returns the reason a hook blocked `messageId`, undefined if it was not blocked. */
  async popBlockedMessage(messageId: string): Promise<string | undefined> {
    return this.#popBlocked('blocked_messages', messageId);
  }

  /** Writes base_state.json: the constant-size checkpoint of the derived state. */
  async checkpoint(): Promise<void> {
    if (this.#heldUpdates.length > 0) await this.#emitHeld();
    const json = buildBaseState({
      state: this.#state,
      agent: this.agent.toJSON(),
      workspace: this.workspace,
      persistenceDir: this.#persistenceDir,
      securityAnalyzer: this.#analyzerSetting,
      secretRegistry: this.#secrets.toJSON(this.#cipher === undefined ? {} : { cipher: this.#cipher }) as Record<
        string,
        unknown
      >,
      hookConfig: this.#hooks === undefined ? null : hookConfigToJSON(this.#hooks.runner.config),
    });
    await this.store.write(`${this.directory}/base_state.json`, JSON.stringify(json));
    await writeViewCheckpoint(this.store, this.directory, this.#view, this.#state, this.log);
  }

  /** Waits for a run in progress, checkpoints, and refuses further use. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#running?.catch(() => undefined);
    await this.#hooks?.sessionEnd().catch(() => undefined);
    await this.#emitting;
    await this.checkpoint();
    await this.log.close?.();
    await this.agent.extensions.close();
    this.#closed = true;
    this.#listeners.clear();
    // Tools release what they hold for this conversation (the terminal kills its shell); a failure there must
    // not keep the conversation open.
    await Promise.allSettled(this.agent.tools.map((tool) => tool.closeConversation?.(this.id)));
    // Everything started for the conversation dies with its sandbox (background jobs, daemons, MCP servers).
    await this.#sandbox.dispose();
  }

  /**
   * Ends every process started for the conversation (the terminal's shell and all it started, the MCP servers,
   * everything in its sandbox) without writing anything; a later run starts them again.
   */
  async endProcesses(): Promise<void> {
    await Promise.allSettled([
      ...this.agent.tools.map((tool) => tool.closeConversation?.(this.id)),
      this.agent.extensions.close(),
    ]);
    await this.#sandbox.dispose();
  }

  /** The events of the conversation so far, oldest first (read lazily from the log). */
  events(from = 0): AsyncIterable<AnyEvent> {
    return this.log.iterate(from);
  }

  /** Starts the agent's MCP servers and skills once per conversation, recording their failures. */
  async #startExtensions(): Promise<void> {
    if (this.#extensionsStarted) return;
    this.#extensionsStarted = true;
    await startExtensions(this.agent, this.workspace, (event) => this.#emit(event), this.#sandbox);
  }

  /**
   * Reads the events other processes or replicas appended to the log since this instance last looked and
   * folds them into the state (one query on a database log). For readers of a shared conversation.
   */
  async catchUp(): Promise<void> {
    this.#assertOpen();
    await this.#emitting;
    await this.log.refresh();
    for (let index = this.#state.event_count; index < this.log.length; index++) this.#apply(await this.log.get(index));
  }

  /**
   * A run's appends stop the moment another owner takes the conversation over. Shared (caller's leases): checked
   * inside the write by logs that can (PostgreSQL: the insert's transaction), just before it by the others. Default
   * ownership: the lease's own renewals notice a takeover (every third of its ttl), so an append costs no store
   * round trip; only a process stalled for a whole ttl can be taken over, and it stops at its next renewal.
   */
  async #assertOwner(): Promise<void> {
    const lease = this.#runLease;
    if (lease === undefined) return;
    if (this.#leases === undefined) {
      if (lease.signal.aborted) throw lease.signal.reason;
      return;
    }
    if (this.log.fencesAppends !== true) await lease.assertHeld();
  }

  /** Takes the conversation's run lease and folds what earlier owners appended meanwhile. */
  async #takeRunLease(
    signal: AbortSignal | undefined,
    waitMs = this.#leaseWaitMs,
  ): Promise<'taken' | 'awaiting-human' | undefined> {
    const lease = await acquireRunLease({
      leases: this.#owners?.leases,
      conversationId: this.id,
      key: this.#owners?.key ?? this.directory,
      waitMs,
      signal,
    });
    if (lease === undefined) return undefined;
    this.#runLease = lease;
    await this.catchUp();
    if (lease.previous !== 'expired') return 'taken';
    return answerInFlightAction(this.#runHost(), this.#options.interruptedActions ?? 'report');
  }

  /**
   * Puts the last events of the active branch written before this process opened the conversation in
   * front of `#recent`: walked back from HEAD (O(RECENT_EVENTS) reads), so an abandoned branch at the
   * end of the log is not mistaken for recent history.
   */
  async #readRecentHistory(): Promise<void> {
    const end = this.#unreadHistoryEnd;
    if (end === undefined) return;
    this.#unreadHistoryEnd = undefined;
    // Events emitted since opening are at the front of #recent: history ends where the first attaches.
    const first = this.#recent[0];
    const from = first === undefined ? this.leafEventId : first.parent_id;
    if (from === undefined || from === ROOT_PARENT_ID) return;
    this.#recent = [...(await recentBranch(this.log, from, RECENT_EVENTS)), ...this.#recent];
  }

  async #setBlocked(key: 'blocked_actions' | 'blocked_messages', value: Record<string, string>): Promise<void> {
    this.#assertOpen();
    await this.#emit(createEvent('ConversationStateUpdateEvent', { key, value }));
    if (!this.isRunning) await this.checkpoint();
  }

  async #popBlocked(key: 'blocked_actions' | 'blocked_messages', id: string): Promise<string | undefined> {
    this.#assertOpen();
    await this.#emitting;
    const reason = this.#state[key][id];
    if (reason === undefined) return undefined;
    const { [id]: _removed, ...rest } = this.#state[key];
    await this.#setBlocked(key, rest);
    return reason;
  }

  /** `#popBlocked` without the wait when nothing is blocked: the common case costs no await on the hot path. */
  async #popBlockedIfAny(
    key: 'blocked_actions' | 'blocked_messages',
    id: string | undefined,
  ): Promise<string | undefined> {
    if (id === undefined) return undefined;
    await this.#emitting;
    if (this.#state[key][id] === undefined) return undefined;
    return this.#popBlocked(key, id);
  }

  #assertOpen(): void {
    if (this.#closed) throw new ConversationClosedError(this.id);
  }

  /** Appends, folds, updates the view and notifies, one event at a time in log order. */
  #emit(event: AnyEvent): Promise<void> {
    if (this.#heldUpdates.length > 0) return this.#emitBatch([...this.#heldUpdates.splice(0), event]);
    linkEvent(event);
    const next = this.#emitting.then(async () => {
      await this.#assertOwner();
      const { stamped, index } =
        this.#leases === undefined ? await this.#appendStamped(event) : await this.#appendAfterOthers(event);
      // Another writer (process or machine) appended in between: fold its events first.
      for (let missing = this.#state.event_count; missing < index; missing++) this.#apply(await this.log.get(missing));
      this.#apply(stamped);
      for (const listener of this.#listeners) listener(stamped, index);
    });
    this.#emitting = next.catch(() => undefined);
    return next;
  }

  /** Writes the held updates that no event of their step took along (see `#heldUpdates`). */
  #emitHeld(): Promise<void> {
    const held = this.#heldUpdates.splice(0);
    return held.length === 1 ? this.#emit(held[0]!) : this.#emitBatch(held);
  }

  /**
   * Appends held state updates and the event after them in one round (`appendMany`), then folds and
   * announces each as `#emit` would. Only state updates precede the last event, and they never move HEAD,
   * so every event gets the parent one append at a time would give it.
   */
  #emitBatch(events: AnyEvent[]): Promise<void> {
    for (const event of events) linkEvent(event);
    const next = this.#emitting.then(async () => {
      await this.#assertOwner();
      const base = this.log.length;
      const leaf = await this.#headForAppend();
      const stamped = events.map((event, offset) => {
        if (event.parent_id !== undefined) return event;
        const parent = parentForAppend(leaf, base + offset);
        return parent === undefined ? event : withParent(event, parent);
      });
      const indices = await this.log.appendMany!(stamped);
      for (const [offset, event] of stamped.entries()) {
        const index = indices[offset]!;
        // Another writer appended in between: fold its events first.
        for (let missing = this.#state.event_count; missing < index; missing++)
          this.#apply(await this.log.get(missing));
        this.#apply(event);
        for (const listener of this.#listeners) listener(event, index);
      }
    });
    this.#emitting = next.catch(() => undefined);
    return next;
  }

  async #appendStamped(event: AnyEvent): Promise<{ stamped: AnyEvent; index: number }> {
    const stamped = event.parent_id === undefined ? await this.#stampParent(event) : event;
    return { stamped, index: await this.log.append(stamped) };
  }

  /**
   * Shared with other processes or replicas (`leases`): appends only at the index after every event this
   * instance has folded, so the event's parent is HEAD as the log has it (a message another replica
   * appended while this one runs stays on the branch); on a conflict, folds the newcomers and restamps.
   */
  async #appendAfterOthers(event: AnyEvent): Promise<{ stamped: AnyEvent; index: number }> {
    for (;;) {
      for (let missing = this.#state.event_count; missing < this.log.length; missing++) {
        this.#apply(await this.log.get(missing));
      }
      const stamped = event.parent_id === undefined ? await this.#stampParent(event) : event;
      try {
        const fence = this.#runLease;
        const expectedIndex = this.#state.event_count;
        return { stamped, index: await this.log.append(stamped, fence ? { expectedIndex, fence } : { expectedIndex }) };
      } catch (error) {
        if (!AppendConflictError.isInstance(error)) throw error;
        await this.log.refresh();
        // Someone else appended: it may be a new owner that took the conversation over.
        await this.#runLease?.assertHeld();
      }
    }
  }

  /** Appends an event after the hooks due before it ran (they may add context to a user message). */
  async #emitWithHooks(event: AnyEvent): Promise<void> {
    await this.#emit(this.#hooks === undefined ? event : await this.#hooks.beforeAppend(event));
  }

  /** The event with `parent_id` set to HEAD (reference `_stamp_parent_id`): every event x appends has one. */
  async #stampParent(event: AnyEvent): Promise<AnyEvent> {
    const parent = parentForAppend(await this.#headForAppend(), this.log.length);
    return parent === undefined ? event : withParent(event, parent);
  }

  /** HEAD, the parent of the next tree event (undefined when the branch is empty). */
  async #headForAppend(): Promise<string | undefined> {
    const leaf = this.leafEventId;
    if (leaf !== undefined || this.#state.head_is_empty || this.log.length === 0) return leaf;
    // A checkpoint written before HEAD was tracked: the legacy HEAD is the last tree event of the log.
    const { tree } = await readBranch(this.log, undefined, false);
    return tree.activeLeaf(undefined);
  }

  #apply(event: AnyEvent): void {
    const head = this.leafEventId;
    this.#state = applyEvent(this.#state, event);
    this.#tree?.add(event);
    // The view follows the active branch: an event that does not continue it (written by another process
    // after moving HEAD) makes the next view() rebuild from the tree.
    if (this.#view !== undefined && continuesBranch(event, head)) this.#view.append(event);
    else if (this.#view !== undefined) {
      this.#view = undefined;
      this.#tree = undefined;
    }
    this.#recent.push(event);
    if (this.#recent.length > RECENT_EVENTS * 2) this.#recent = this.#recent.slice(-RECENT_EVENTS);
  }

  async #setStatus(status: ExecutionStatus): Promise<void> {
    if (this.#state.execution_status === status) return;
    await this.#emit(createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: status }));
  }

  #publish(event: AnyEvent): void {
    for (const listener of this.#listeners) listener(event, undefined);
  }

  #runHost(): RunHost {
    return {
      conversation: this,
      state: () => this.#state,
      settle: () => this.#emitting.then(() => undefined),
      emit: (event) => this.#emit(event),
      setStatus: (status) => this.#setStatus(status),
      recentEvents: () => this.#recent.filter((event) => event.kind !== 'ConversationStateUpdateEvent'),
      stuckDetector: this.#stuck,
      stepContext: (signal) => this.#stepContext(signal),
      checkpoint: () => this.checkpoint(),
      assertOpen: () => this.#assertOpen(),
      popBlockedMessage: (id) => this.#popBlockedIfAny('blocked_messages', id),
      ...(this.#hooks === undefined ? {} : { hooks: this.#hooks }),
    };
  }

  #stepContext(signal: AbortSignal | undefined): StepContext {
    return createStepContext({
      conversationId: this.id,
      workspace: this.workspace,
      state: () => this.#state,
      view: () => this.view(),
      emit: (event) => this.#emitWithHooks(event),
      publish: (event) => this.#publish(event),
      setStatus: (status) => this.#setStatus(status),
      // Blocks live in the state (set by this process's hooks, or before a restart, or by the reference).
      takeHookBlock: (id: string) => this.#popBlockedIfAny('blocked_actions', id),
      recordResponse: (llm, response) => this.#recordResponse(llm, response, { hold: true }),
      pendingActions: () => this.pendingActions(),
      secrets: this.#secrets,
      analyzer: this.#analyzer,
      signal,
      sandbox: () => this.#sandbox.get(),
      toolConversation: this.#toolConversation(),
      files: conversationFiles(this.store, this.directory),
    });
  }

  #toolConversation(): ToolConversation {
    const state = () => this.#state;
    return {
      id: this.id,
      store: this.store,
      directory: this.directory,
      persistenceDir: this.#persistenceDir,
      workspace: this.workspace,
      llm: this.agent.llm,
      get confirmationPolicy() {
        return state().confirmation_policy;
      },
      recordUsage: async (usageId, metrics) => {
        const stats = { usage_to_metrics: { ...this.#latestStats().usage_to_metrics, [usageId]: metrics } };
        await this.#emit(createEvent('ConversationStateUpdateEvent', { key: 'stats', value: stats }));
      },
      activeBranch: () => this.activeBranch(),
      sandboxPolicy: this.#sandbox.policy,
      sandbox: () => this.#sandbox.get(),
    };
  }

  readonly #recorder = (llm: LLM, response: LLMResponse): Promise<void> => this.#recordResponse(llm, response);

  async #recordResponse(llm: LLM, response: LLMResponse, options: { hold?: boolean } = {}): Promise<void> {
    const latest = this.#latestStats();
    const stats = accumulateStats(latest, llm, response);
    // A response without usage or cost changes nothing in the snapshot: record no event for it.
    if (JSON.stringify(stats) === JSON.stringify(latest)) return;
    const update = createEvent('ConversationStateUpdateEvent', { key: 'stats', value: stats });
    // Held for the step's next event only where the log can write both in one round and no other writer
    // interleaves (with leases every append must land at the index this instance expects).
    if (options.hold === true && this.#leases === undefined && this.log.appendMany !== undefined) {
      this.#heldUpdates.push(update);
      return;
    }
    await this.#emit(update);
  }

  /** The stats snapshot with the held updates applied (what the next stats update must build on). */
  #latestStats(): ConversationState['stats'] {
    const held = this.#heldUpdates.at(-1);
    return held?.kind === 'ConversationStateUpdateEvent'
      ? (held.value as ConversationState['stats'])
      : this.#state.stats;
  }
}

/** A conversation's sandbox, recording its policy in the conversation's directory each time it is opened. */
function conversationSandbox(
  options: Pick<ConversationOptions, 'workspace' | 'openSandbox'>,
  policy: SandboxPolicy,
  record: { store: FileStore; directory: string; sinceEvent: () => number },
): ConversationSandbox {
  return createConversationSandbox({
    policy,
    workspace: options.workspace ?? process.cwd(),
    open: options.openSandbox ?? openDefaultSandbox,
    record,
  });
}
