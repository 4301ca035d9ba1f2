import {
  type Agent,
  AgentError,
  approvalRulesSchema,
  Conversation,
  type ConversationOptions,
  listSubConversationIds,
  type SecretCipher,
  type SecretInput,
} from '@x/agent';
import { type AnyEvent, createEvent, type Message } from '@x/events';
import type { EventLogLike, FileStore } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import { hyphenate } from '../internal/conversation-ids.js';
import type { ServerSandboxing } from '../sandboxing/server-sandboxing.js';
import type { SocketConversation } from '../websocket/event-socket-host.js';
import { buildAgent, buildAgents, redactedAgentConfig } from './build-agent.js';
import { hookConfigInfo, hooksOfRequest } from './conversation-hooks.js';
import { conversationInfo } from './conversation-info.js';
import { type ConversationMeta, nowIso, writeConversationMeta } from './conversation-meta.js';
import { ConversationBusyError } from './errors/conversation-busy-error.js';
import { ConversationDamagedError } from './errors/conversation-damaged-error.js';
import { ConversationDeletedError } from './errors/conversation-deleted-error.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';
import type { ManagedConversationDeps } from './managed-conversation-deps.js';
import { recordInterruptedAction, recordInterruptedRun } from './restart-recovery.js';
import { resumeOptions } from './resume-options.js';

export type { ManagedConversationDeps } from './managed-conversation-deps.js';

/**
 * One conversation as the server holds it: its meta.json, the `Conversation` (opened on first use),
 * the background run, and the listeners of published-only events (deltas, full_state snapshots).
 */
export class ManagedConversation implements SocketConversation {
  readonly id: string;
  readonly hex: string;
  #meta!: ConversationMeta;
  readonly #deps: ManagedConversationDeps;
  #subConversationIds: string[] = [];
  #conversation: Conversation | undefined;
  #opening: Promise<Conversation> | undefined;
  readonly #published = new Set<(event: AnyEvent) => void>();
  #run: Promise<void> | undefined;
  #rerunRequested = false;
  /** Set when opening found a run a restart cut off that should be resumed (`interruptedActions`, one server). */
  resumeAfterRestart = false;
  #afterRunDone: Promise<void> = Promise.resolve();
  #metaWrite: Promise<void> = Promise.resolve();
  #deleted = false;
  /** When the conversation was last opened or handed out (the clock of `deps.now`). */
  #lastUsed: number;
  /** A release under way: opening waits for it, so the next open resumes from what it wrote. */
  #releasing: Promise<void> | undefined;
  #damage: string | undefined;
  readonly #onDeleted = new Set<() => void>();

  constructor(meta: ConversationMeta, deps: ManagedConversationDeps) {
    this.hex = meta.id;
    this.id = hyphenate(meta.id);
    this.#deps = deps;
    this.meta = meta;
    this.#lastUsed = this.#now();
  }

  #now(): number {
    return (this.#deps.now ?? Date.now)();
  }

  /** When the conversation was last opened or handed out (the clock of `deps.now`). */
  get lastUsed(): number {
    return this.#lastUsed;
  }

  /**
   * True when releasing the open conversation loses nothing: no run, no open in progress, no listener of
   * published events (an event socket) and no run a restart left to resume.
   */
  get isReleasable(): boolean {
    return (
      this.#conversation !== undefined &&
      this.#run === undefined &&
      this.#opening === undefined &&
      this.#releasing === undefined &&
      this.#published.size === 0 &&
      !this.resumeAfterRestart &&
      !this.#deleted
    );
  }

  /**
   * Closes the open conversation and lets its events, state and processes go (idle release: the server's
   * memory is bounded by the conversations in use, not by history). The next use resumes it from the store.
   * False when it is in use (`isReleasable`).
   */
  async release(): Promise<boolean> {
    const conversation = this.#conversation;
    if (conversation === undefined || !this.isReleasable) return false;
    this.#conversation = undefined;
    this.#releasing = (async () => {
      await conversation.close();
      await this.saveMeta().catch(() => undefined);
    })().finally(() => {
      this.#releasing = undefined;
    });
    await this.#releasing;
    this.#deps.logger.debug({ conversationId: this.id }, 'idle conversation released');
    return true;
  }

  /** The server's record of the conversation (meta.json as it will next be written). */
  get meta(): ConversationMeta {
    return this.#meta;
  }

  set meta(meta: ConversationMeta) {
    this.#meta = meta;
    if (!this.#deleted) this.#deps.onMetaChange?.(meta);
  }

  /** Adopts a conversation just created by the manager. */
  static adopt(meta: ConversationMeta, conversation: Conversation, deps: ManagedConversationDeps): ManagedConversation {
    const managed = new ManagedConversation(meta, deps);
    managed.#attach(conversation);
    return managed;
  }

  get isOpen(): boolean {
    return this.#conversation !== undefined;
  }

  get isRunning(): boolean {
    return this.#run !== undefined;
  }

  /** The open conversation's log (SocketConversation); the manager opens before handing this out. */
  get log(): EventLogLike {
    if (this.#conversation === undefined) throw new Error(`Conversation ${this.id} is not open`);
    return this.#conversation.log;
  }

  /**
   * Opens (resumes) the conversation once; a run the last process left `running` is recovered (§11.5).
   * Files that cannot be read back (truncated base_state.json, missing files, ...) give a
   * `ConversationDamagedError` (409) naming the reason; a deleted conversation gives `ConversationDeletedError`.
   */
  open(): Promise<Conversation> {
    this.#lastUsed = this.#now();
    const releasing = this.#releasing;
    if (releasing !== undefined) return releasing.then(() => this.open());
    const open = this.#conversation;
    if (open !== undefined) {
      // Shared with other replicas: what they appended (a run, a message) is folded before answering.
      if (this.#deps.shared === undefined || open.isRunning) return Promise.resolve(open);
      return open.catchUp().then(() => open);
    }
    if (this.#deleted) return Promise.reject(new ConversationDeletedError(this.id));
    this.#opening ??= this.#resume()
      .catch((error: unknown) => {
        if (this.#deleted) throw new ConversationDeletedError(this.id);
        const damaged = ConversationDamagedError.isInstance(error)
          ? error
          : new ConversationDamagedError(this.id, error instanceof Error ? error.message : String(error), {
              cause: error,
            });
        this.#damage = damaged.reason;
        throw damaged;
      })
      .finally(() => {
        this.#opening = undefined;
      });
    return this.#opening;
  }

  /** Called by the manager when a delete begins: no new run or message, and the listeners are told. */
  markDeleted(): void {
    if (this.#deleted) return;
    this.#deleted = true;
    for (const listener of [...this.#onDeleted]) {
      try {
        listener();
      } catch (error) {
        this.#deps.logger.warn({ conversationId: this.id, err: error }, 'a delete listener failed');
      }
    }
    this.#onDeleted.clear();
  }

  /** Why the last attempt to open failed (cleared by a successful open); undefined when none failed. */
  get damage(): string | undefined {
    return this.#damage;
  }

  /** True once opening failed: listings leave it out without retrying (a GET of the conversation retries). */
  get isDamaged(): boolean {
    return this.#damage !== undefined && this.#conversation === undefined;
  }

  get isDeleted(): boolean {
    return this.#deleted;
  }

  /** Calls `listener` once when the conversation is deleted (event sockets close). */
  onDeleted(listener: () => void): () => void {
    if (this.#deleted) {
      listener();
      return () => undefined;
    }
    this.#onDeleted.add(listener);
    return () => this.#onDeleted.delete(listener);
  }

  async #resume(): Promise<Conversation> {
    const options = resumeOptions(this.id, this.meta, this.#deps);
    let conversation = await Conversation.resume(this.hex, options);
    // With leases, `running` may be another replica's live run; a dead owner's run is recovered by the next run.
    if (conversation.state.execution_status === 'running' && this.#deps.shared?.leases === undefined) {
      this.#deps.logger.warn(
        { conversationId: this.id },
        'conversation was running when the server stopped: recording the interruption',
      );
      const mode = this.#deps.interruptedActions;
      if (mode === undefined) await recordInterruptedRun(conversation);
      else this.resumeAfterRestart = await recordInterruptedAction(conversation, mode);
      conversation = await Conversation.resume(this.hex, options);
    }
    this.#attach(conversation);
    this.#deps.logger.info({ conversationId: this.id, events: conversation.log.length }, 'conversation opened');
    this.#recordStatus(conversation.state.execution_status);
    this.publishFullState();
    return conversation;
  }

  /** Re-reads the ids of the sub-agents' conversations (`<id>/subagents/`) for ConversationInfo. */
  async refreshSubConversations(): Promise<void> {
    try {
      this.#subConversationIds = await listSubConversationIds(this.#deps.store, this.hex);
    } catch (error) {
      this.#deps.logger.warn({ conversationId: this.id, err: error }, 'could not list sub-conversations');
    }
  }

  #attach(conversation: Conversation): void {
    this.#conversation = conversation;
    void this.refreshSubConversations();
    conversation.subscribe((event, index) => {
      if (event.kind === 'ObservationEvent' && event.tool_name === 'delegate') void this.refreshSubConversations();
      if (index === undefined) {
        this.#publish(event);
        return;
      }
      if (event.kind === 'ConversationStateUpdateEvent') {
        if (event.key === 'execution_status' && typeof event.value === 'string') this.#recordStatus(event.value);
        if (event.key === 'title' && typeof event.value === 'string' && event.value !== this.meta.state_title) {
          this.meta = { ...this.meta, state_title: event.value };
          this.saveMeta().catch(() => undefined);
        }
        return;
      }
      this.meta = { ...this.meta, updated_at: nowIso() };
    });
  }

  /** Keeps meta.json's status hint current; status changes are few per run, so this is cheap. */
  #recordStatus(status: string): void {
    if (this.meta.execution_status === status) return;
    this.meta = { ...this.meta, execution_status: status };
    // saveMeta logs its own failure (e.g. the conversation was deleted meanwhile).
    this.saveMeta().catch(() => undefined);
  }

  /** Writes meta.json; writes are serialized so the last state wins. */
  saveMeta(): Promise<void> {
    // The status hint follows the live state: a status folded from an event (a FinishObservation sets
    // `finished`) records no status update event of its own.
    const live = this.#conversation?.state.execution_status;
    if (live !== undefined && live !== this.meta.execution_status) this.meta = { ...this.meta, execution_status: live };
    const write = this.#metaWrite.then(() => writeConversationMeta(this.#deps.store, this.meta));
    this.#metaWrite = write.catch((error: unknown) => {
      if (ConversationDeletedError.isInstance(error)) return;
      this.#deps.logger.error({ conversationId: this.id, err: error }, 'could not write meta.json');
    });
    return write;
  }

  /** ConversationInfo of the open conversation. */
  fullState(): Record<string, unknown> {
    const conversation = this.#conversation;
    if (conversation === undefined) throw new Error(`Conversation ${this.id} is not open`);
    const agent: Record<string, unknown> = {
      ...conversation.agent.toJSON(),
      llm: { ...redactedAgentConfig(this.meta.agent).llm },
    };
    // As the reference: skill contents are left out of responses.
    if (agent.agent_context !== undefined) agent.agent_context = { ...(agent.agent_context as object), skills: [] };
    return conversationInfo({
      meta: this.meta,
      state: conversation.state,
      agent,
      persistenceDir: this.#deps.persistenceDir,
      secretNames: this.meta.secret_names,
      hookConfig: hookConfigInfo(hooksOfRequest(this.meta.hook_config)),
      subConversationIds: this.#subConversationIds,
      sandboxPolicy: conversation.sandboxPolicy,
    });
  }

  onPublished(listener: (event: AnyEvent) => void): () => void {
    this.#published.add(listener);
    return () => this.#published.delete(listener);
  }

  #publish(event: AnyEvent): void {
    for (const listener of this.#published) {
      try {
        listener(event);
      } catch (error) {
        // A failing subscriber is isolated from the others and from the conversation (§11.5).
        this.#deps.logger.warn({ conversationId: this.id, err: error }, 'a published-event listener failed');
      }
    }
  }

  /** Publishes a `full_state` ConversationStateUpdateEvent (never persisted). */
  publishFullState(): void {
    if (this.#conversation === undefined || this.#published.size === 0) return;
    this.#publish(createEvent('ConversationStateUpdateEvent', { key: 'full_state', value: this.fullState() }));
  }

  async sendUserMessage(message: Message): Promise<void> {
    await this.sendMessage(message, { run: true });
  }

  /** Adds a user message; with `run`, starts a run, or schedules one after the run in progress. */
  async sendMessage(message: Message, options: { run: boolean }): Promise<void> {
    if (message.role !== 'user') {
      throw new InvalidRequestError(`Only user messages can be sent to a conversation (role was '${message.role}')`);
    }
    if (this.#deleted) throw new ConversationDeletedError(this.id);
    const conversation = await this.open();
    await conversation.sendMessage(message);
    await this.saveMeta();
    if (!options.run) return;
    if (this.isRunning) this.#rerunRequested = true;
    else if (this.#deps.shared === undefined) await this.startRun();
    else {
      // Another replica may run it: its run folds the message at its next step, as a run in this process
      // would. One that is just ending releases the lease in a moment, so wait for it a little.
      await this.startRun({ leaseWaitMs: SHARED_RUN_WAIT_MS }).catch((error: unknown) => {
        if (!isHeldElsewhere(error)) throw error;
      });
    }
  }

  /**
   * Accepts the pending actions (reference `respond_to_confirmation` with accept): runs them, unless a run
   * is already going here or, on replicas, in another replica (whose run takes them: applied once).
   */
  async acceptPendingActions(options: { leaseWaitMs?: number } = {}): Promise<void> {
    if (this.isRunning) return;
    await this.startRun(options).catch((error: unknown) => {
      if (this.#deps.shared === undefined || !isHeldElsewhere(error)) throw error;
    });
  }

  /**
   * Starts a run in the background. Resolves once the run has begun (status `running`) or already
   * ended, so a client that reads the conversation next sees it. Throws `ConversationBusyError` (409)
   * when a run is in progress.
   */
  async startRun(options: { leaseWaitMs?: number } = {}): Promise<void> {
    const conversation = await this.open();
    if (this.#deleted) throw new ConversationDeletedError(this.id);
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
    this.#deps.logger.info({ conversationId: this.id }, 'run started');
    let begun = false;
    let refused: unknown;
    this.#run = conversation
      .run(options.leaseWaitMs === undefined ? {} : { leaseWaitMs: options.leaseWaitMs })
      .then(
        (result) => {
          this.#deps.logger.info({ conversationId: this.id, ...result }, 'run ended');
        },
        (error: unknown) => {
          // Another replica holds the conversation's lease: the caller gets the 409, not a silent no-op.
          if (!begun && AgentError.isInstance(error) && error.code === 'conversation_running') refused = error;
          else this.#deps.logger.warn({ conversationId: this.id, err: error }, 'run failed');
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
    await this.saveMeta().catch(() => undefined);
    this.publishFullState();
    const conversation = this.#conversation;
    if (this.#rerunRequested && conversation !== undefined) {
      this.#rerunRequested = false;
      if (conversation.state.execution_status === 'idle') {
        await this.startRun().catch((error: unknown) => {
          this.#deps.logger.warn({ conversationId: this.id, err: error }, 'scheduled re-run could not start');
        });
      }
    }
  }

  /** Moves HEAD (reference `navigate_to`); 409 during a run, 404 for an unknown event. */
  async navigateTo(eventId: string | null): Promise<void> {
    const conversation = await this.open();
    if (this.#run !== undefined) throw new ConversationBusyError();
    await conversation.navigateTo(eventId);
    this.publishFullState();
  }

  /** Adds or replaces secrets (values kept in base_state.json, encrypted or redacted; names in meta.json). */
  async updateSecrets(secrets: Readonly<Record<string, SecretInput>>): Promise<void> {
    const conversation = await this.open();
    await conversation.updateSecrets(secrets);
    const names = [...new Set([...this.meta.secret_names, ...Object.keys(secrets)])];
    this.meta = { ...this.meta, secret_names: names };
    await this.saveMeta();
    this.publishFullState();
  }

  /**
   * Sets the security analyzer from the reference's JSON: `{"kind": "LLMSecurityAnalyzer"}` trusts the
   * risk the model declares, `null` turns analysis off; other kinds are refused (422).
   */
  async setSecurityAnalyzer(analyzer: { kind: string } | null): Promise<void> {
    if (analyzer !== null && analyzer.kind !== 'LLMSecurityAnalyzer') {
      throw new InvalidRequestError(
        `security_analyzer.kind '${analyzer.kind}' is not supported (supported: LLMSecurityAnalyzer, or null for none)`,
        { statusCode: 422 },
      );
    }
    const conversation = await this.open();
    await conversation.setSecurityAnalyzer(analyzer === null ? 'none' : 'llm');
    this.meta = { ...this.meta, security_analyzer: analyzer };
    await this.saveMeta();
    this.publishFullState();
  }

  /** Pauses (taking effect between steps) and publishes the state. */
  async pause(): Promise<void> {
    const conversation = await this.open();
    await conversation.pause();
    this.publishFullState();
  }

  /**
   * Interrupts the run in progress now (the model call and running tools are aborted, an InterruptEvent is
   * recorded, status `paused`), or pauses when none runs here; then publishes the state.
   */
  async interrupt(): Promise<void> {
    const conversation = await this.open();
    await conversation.interrupt();
    this.publishFullState();
  }

  /** Resolves when the background run (if any) has ended, or after `timeoutMs`; true when it ended. */
  async waitForRun(timeoutMs: number): Promise<boolean> {
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

  /**
   * Checkpoints and releases the conversation; a run still going (shutdown timeout) is only checkpointed, and the
   * processes its tools started are ended all the same.
   */
  async close(): Promise<void> {
    const conversation = this.#conversation;
    if (conversation !== undefined) {
      if (this.#run === undefined) await conversation.close();
      else {
        await conversation.checkpoint();
        await this.releaseProcesses();
      }
    }
    await this.saveMeta().catch(() => undefined);
    this.#published.clear();
  }

  /**
   * Ends every process the conversation's agent started: the terminal's shell with all its commands' processes,
   * and the MCP servers. Writes nothing (a deleted conversation's store is already revoked).
   */
  async releaseProcesses(): Promise<void> {
    const conversation = this.#conversation;
    if (conversation === undefined) return;
    await conversation.endProcesses();
  }

  /** The open conversation (opening it when needed). */
  conversation(): Promise<Conversation> {
    return this.open();
  }
}

/** How long a message sent with `run` waits for another replica's run that is ending to release the lease. */
const SHARED_RUN_WAIT_MS = 1_000;

/** Another replica (or process) holds the conversation's lease. */
function isHeldElsewhere(error: unknown): boolean {
  return AgentError.isInstance(error) && error.code === 'conversation_running';
}
