import { randomUUID } from 'node:crypto';
import { type ActionEvent, type AnyEvent, createEvent, type Message, View } from '@x/events';
import type { EventLogLike, FileStore, Lease, Leases } from '@x/store';
import type { Agent } from '../agent/agent.js';
import type { StepContext } from '../agent/step-context.js';
import { type ConfirmationPolicyInput, parseConfirmationPolicy } from '../confirmation/confirmation-policy.js';
import { llmRiskAnalyzer, type SecurityAnalyzer } from '../confirmation/security-analyzer.js';
import type { LLM, LLMResponse } from '../llm/llm.js';
import { createSecretCipher, type SecretCipher } from '../secrets/secret-cipher.js';
import type { SecretRegistry } from '../secrets/secret-registry.js';
import { accumulateStats } from '../state/accumulate-stats.js';
import { applyEvent } from '../state/apply-event.js';
import { type ConversationState, initialConversationState } from '../state/conversation-state.js';
import type { ExecutionStatus } from '../state/execution-status.js';
import { StuckDetector } from '../stuck/stuck-detector.js';
import { buildBaseState } from './base-state.js';
import { openConversationLog, storeFor, toRegistry } from './conversation-defaults.js';
import type { ConversationListener, ConversationOptions, RunOptions, RunResult } from './conversation-options.js';
import { ConversationAlreadyRunningError } from './errors/conversation-already-running-error.js';
import { ConversationClosedError } from './errors/conversation-closed-error.js';
import { ConversationExistsError } from './errors/conversation-exists-error.js';
import { loadPersistedState } from './load-persisted-state.js';
import { interruptedActionEvent } from './ownership/interrupted-action.js';
import { acquireRunLease } from './ownership/run-lease.js';
import { conversationDirName, defaultPersistenceDir, hyphenateConversationId } from './persistence-layout.js';
import { readableEvents } from './readable-events.js';
import type { RunHost } from './run-host.js';
import { runLoop } from './run-loop.js';
import { askAgent, generateTitle } from './side-questions.js';
import { startExtensions, userMessageEvent } from './start-extensions.js';
import { createStepContext } from './step-context-factory.js';

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
  #recent: AnyEvent[] = [];
  /** Events before this index were written before this process opened the conversation; read on first run. */
  #unreadHistoryEnd: number | undefined;
  readonly #listeners = new Set<ConversationListener>();
  readonly #secrets: SecretRegistry;
  readonly #cipher: SecretCipher | undefined;
  readonly #analyzer: SecurityAnalyzer | undefined;
  readonly #stuck: StuckDetector | undefined;
  readonly #persistenceDir: string;
  #emitting: Promise<unknown> = Promise.resolve();
  #running: Promise<RunResult> | undefined;
  #closed = false;
  #extensionsStarted = false;
  readonly #leases: Leases | undefined;
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
  }) {
    const { options } = init;
    this.id = init.state.id;
    this.agent = options.agent;
    this.workspace = options.workspace ?? process.cwd();
    this.store = init.store;
    this.directory = conversationDirName(this.id);
    this.log = init.log;
    this.#state = init.state;
    this.#secrets = init.secrets;
    this.#cipher = init.cipher;
    this.#persistenceDir = options.persistenceDir ?? defaultPersistenceDir();
    const analyzer = options.securityAnalyzer ?? 'llm';
    this.#analyzer = analyzer === 'none' ? undefined : analyzer === 'llm' ? llmRiskAnalyzer : analyzer;
    this.#stuck =
      options.stuckDetection === false
        ? undefined
        : new StuckDetector(typeof options.stuckDetection === 'object' ? options.stuckDetection : {});
    if (options.onEvent !== undefined) this.#listeners.add(options.onEvent);
    this.#leases = options.leases;
    this.#leaseWaitMs = options.leaseWaitMs;
  }

  /** Starts a new conversation (its first event is the agent's system prompt). */
  static async create(options: ConversationOptions): Promise<Conversation> {
    const id = options.id ?? randomUUID();
    const store = storeFor(options);
    if (await store.exists(`${conversationDirName(id)}/base_state.json`)) {
      throw new ConversationExistsError(id, store.describe(conversationDirName(id)));
    }
    const log = await openConversationLog(options, {
      conversationId: id,
      store,
      dir: `${conversationDirName(id)}/events`,
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
    const conversation = new Conversation({ options, store, log, state, secrets: toRegistry(options.secrets), cipher });
    await options.agent.startExtensions(conversation.workspace);
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
    if (options.maxIterationsPerRun !== undefined) state = { ...state, max_iterations: options.maxIterationsPerRun };
    const secrets =
      options.secrets === undefined && persisted.secrets !== undefined
        ? persisted.secrets
        : toRegistry(options.secrets);
    const conversation = new Conversation({
      options: { ...options, id: conversationId },
      store,
      log: persisted.log,
      state,
      secrets,
      cipher,
    });
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
    await this.#emit(userMessageEvent(this.agent, llmMessage, { ...options, activated: this.#activatedSkills }));
    if (this.#state.execution_status === 'finished' || this.#state.execution_status === 'stuck') {
      await this.#setStatus('idle');
    }
    if (!this.isRunning) await this.checkpoint();
  }

  /**
   * Runs the agent until the conversation finishes, pauses, waits for confirmation, gets stuck, fails
   * or reaches the iteration limit. A failure is recorded (ConversationErrorEvent, status `error`) and
   * thrown as `ConversationRunError`. Only one run at a time: a second concurrent call throws
   * `ConversationAlreadyRunningError`.
   */
  async run(options: RunOptions = {}): Promise<RunResult> {
    this.#assertOpen();
    if (this.#running !== undefined) throw new ConversationAlreadyRunningError(this.id);
    const running = this.#takeRunLease(options.signal)
      .then(() => this.#readRecentHistory())
      .then(() => this.#startExtensions())
      .then(() => runLoop(this.#runHost(), options))
      .finally(async () => {
        this.#running = undefined;
        const lease = this.#runLease;
        this.#runLease = undefined;
        await lease?.release().catch(() => undefined);
      });
    this.#running = running;
    return running;
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

  /** Answers a side question from the conversation's context. Records nothing and changes nothing. */
  async askAgent(question: string): Promise<string> {
    this.#assertOpen();
    return askAgent({ llm: this.agent.llm, view: await this.view(), question });
  }

  /** Makes (and records) a title from the first user message. */
  async generateTitle(options: { maxLength?: number; llm?: LLM } = {}): Promise<string> {
    this.#assertOpen();
    const title = await generateTitle({
      conversationId: this.id,
      log: this.log,
      llm: options.llm ?? this.agent.llm,
      ...options,
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

  /** The LLM-visible view: built from the log once, then kept up to date as events are emitted. */
  async view(): Promise<View> {
    if (this.#view === undefined) {
      const events: AnyEvent[] = [];
      for await (const event of readableEvents(this.log, 0)) if (event !== undefined) events.push(event);
      this.#view = View.fromEvents(events);
    }
    return this.#view;
  }

  /** Writes base_state.json: the constant-size checkpoint of the derived state. */
  async checkpoint(): Promise<void> {
    const json = buildBaseState({
      state: this.#state,
      agent: this.agent.toJSON(),
      workspace: this.workspace,
      persistenceDir: this.#persistenceDir,
      secretRegistry: this.#secrets.toJSON(this.#cipher === undefined ? {} : { cipher: this.#cipher }) as Record<
        string,
        unknown
      >,
    });
    await this.store.write(`${this.directory}/base_state.json`, JSON.stringify(json));
  }

  /** Waits for a run in progress, checkpoints, and refuses further use. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#running?.catch(() => undefined);
    await this.#emitting;
    await this.checkpoint();
    await this.agent.extensions.close();
    this.#closed = true;
    this.#listeners.clear();
  }

  /** The events of the conversation so far, oldest first (read lazily from the log). */
  events(from = 0): AsyncIterable<AnyEvent> {
    return this.log.iterate(from);
  }

  /** Starts the agent's MCP servers and skills once per conversation, recording their failures. */
  async #startExtensions(): Promise<void> {
    if (this.#extensionsStarted) return;
    this.#extensionsStarted = true;
    await startExtensions(this.agent, this.workspace, (event) => this.#emit(event));
  }

  /** With leases: takes the conversation's lease and folds what earlier owners appended meanwhile. */
  async #takeRunLease(signal: AbortSignal | undefined): Promise<void> {
    const lease = await acquireRunLease({
      leases: this.#leases,
      conversationId: this.id,
      key: this.directory,
      waitMs: this.#leaseWaitMs,
      signal,
    });
    if (lease === undefined) return;
    this.#runLease = lease;
    await this.log.refresh();
    await this.#emitting;
    for (let index = this.#state.event_count; index < this.log.length; index++) this.#apply(await this.log.get(index));
    // The previous owner died mid-run: the action it was executing may or may not have had its effect.
    if (lease.previous === 'expired' && this.#state.execution_status === 'running') {
      const [inFlight] = await this.pendingActions();
      if (inFlight !== undefined) await this.#emit(interruptedActionEvent(inFlight));
    }
  }

  /** Puts the last events written before this process opened the conversation in front of `#recent`. */
  async #readRecentHistory(): Promise<void> {
    const end = this.#unreadHistoryEnd;
    if (end === undefined) return;
    this.#unreadHistoryEnd = undefined;
    const history: AnyEvent[] = [];
    for await (const event of readableEvents(this.log, Math.max(0, end - RECENT_EVENTS), end)) {
      if (event !== undefined) history.push(event);
    }
    this.#recent = [...history, ...this.#recent];
  }

  #assertOpen(): void {
    if (this.#closed) throw new ConversationClosedError(this.id);
  }

  /** Appends, folds, updates the view and notifies, one event at a time in log order. */
  #emit(event: AnyEvent): Promise<void> {
    const next = this.#emitting.then(async () => {
      // A run's appends stop the moment another owner takes the conversation over.
      await this.#runLease?.assertHeld();
      const index = await this.log.append(event);
      // Another writer (process or machine) appended in between: fold its events first.
      for (let missing = this.#state.event_count; missing < index; missing++) this.#apply(await this.log.get(missing));
      this.#apply(event);
      for (const listener of this.#listeners) listener(event, index);
    });
    this.#emitting = next.catch(() => undefined);
    return next;
  }

  #apply(event: AnyEvent): void {
    this.#state = applyEvent(this.#state, event);
    this.#view?.append(event);
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
    };
  }

  #stepContext(signal: AbortSignal | undefined): StepContext {
    return createStepContext({
      conversationId: this.id,
      workspace: this.workspace,
      state: () => this.#state,
      view: () => this.view(),
      emit: (event) => this.#emit(event),
      publish: (event) => this.#publish(event),
      setStatus: (status) => this.#setStatus(status),
      recordResponse: (llm, response) => this.#recordResponse(llm, response),
      pendingActions: () => this.pendingActions(),
      secrets: this.#secrets,
      analyzer: this.#analyzer,
      signal,
    });
  }

  async #recordResponse(llm: LLM, response: LLMResponse): Promise<void> {
    const stats = accumulateStats(this.#state.stats, llm, response);
    // A response without usage or cost changes nothing in the snapshot: record no event for it.
    if (JSON.stringify(stats) === JSON.stringify(this.#state.stats)) return;
    await this.#emit(createEvent('ConversationStateUpdateEvent', { key: 'stats', value: stats }));
  }
}
