import { type Conversation, listSubConversationIds, type SecretInput, type SendMessageOptions } from '@x/agent';
import { type AnyEvent, createEvent, type Message } from '@x/events';
import type { EventLogLike } from '@x/store';
import { hyphenate } from '../internal/conversation-ids.js';
import type { SocketConversation } from '../websocket/event-socket-host.js';
import { openConversationInfo } from './conversation-info.js';
import { type ConversationMeta, nowIso, writeConversationMeta } from './conversation-meta.js';
import { DeletionMark } from './deletion-mark.js';
import { ConversationBusyError } from './errors/conversation-busy-error.js';
import { ConversationDamagedError } from './errors/conversation-damaged-error.js';
import { ConversationDeletedError } from './errors/conversation-deleted-error.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';
import { IdleRelease } from './idle-release.js';
import type { ManagedConversationDeps } from './managed-conversation-deps.js';
import { PublishedEvents } from './published-events.js';
import { resumeRecovering } from './restart-recovery.js';
import { RunDriver } from './run-driver.js';
import type { RunReservation } from './run-reservation.js';
import { securityAnalysisOf } from './security-analyzer-choice.js';

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
  readonly #published: PublishedEvents;
  readonly #runs: RunDriver;
  /** Set when opening found a run a restart cut off that should be resumed (`interruptedActions`, one server). */
  resumeAfterRestart = false;
  #metaWrite: Promise<void> = Promise.resolve();
  readonly #deletion: DeletionMark;
  readonly #idle: IdleRelease;
  #damage: string | undefined;

  constructor(meta: ConversationMeta, deps: ManagedConversationDeps) {
    this.hex = meta.id;
    this.id = hyphenate(meta.id);
    this.#deps = deps;
    const warn = (what: string) => (error: unknown) => deps.logger.warn({ conversationId: this.id, err: error }, what);
    this.#deletion = new DeletionMark(warn('a delete listener failed'));
    this.meta = meta;
    this.#published = new PublishedEvents(warn('a published-event listener failed'));
    this.#idle = new IdleRelease({ now: () => (deps.now ?? Date.now)(), logger: deps.logger, conversationId: this.id });
    this.#runs = new RunDriver(
      {
        id: this.id,
        isDeleted: () => this.#deletion.isDeleted,
        open: () => this.open(),
        current: () => this.#conversation,
        saveMeta: () => this.saveMeta(),
        publishFullState: () => this.publishFullState(),
      },
      deps,
    );
  }

  /** When the conversation was last opened or handed out (the clock of `deps.now`). */
  get lastUsed(): number {
    return this.#idle.lastUsed;
  }

  /**
   * True when releasing the open conversation loses nothing: no run, no open in progress, no listener of
   * published events (an event socket) and no run a restart left to resume.
   */
  get isReleasable(): boolean {
    return (
      this.#conversation !== undefined &&
      !this.#runs.isRunning &&
      this.#opening === undefined &&
      this.#idle.releasing === undefined &&
      this.#published.size === 0 &&
      !this.resumeAfterRestart &&
      !this.#deletion.isDeleted
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
    await this.#idle.release(conversation, () => this.saveMeta());
    return true;
  }

  /** The server's record of the conversation (meta.json as it will next be written). */
  get meta(): ConversationMeta {
    return this.#meta;
  }

  set meta(meta: ConversationMeta) {
    this.#meta = meta;
    if (!this.#deletion.isDeleted) this.#deps.onMetaChange?.(meta);
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
    return this.#runs.isRunning;
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
    this.#idle.touch();
    const releasing = this.#idle.releasing;
    if (releasing !== undefined) return releasing.then(() => this.open());
    const open = this.#conversation;
    if (open !== undefined) {
      // Shared with other replicas: what they appended (a run, a message) is folded before answering.
      if (this.#deps.shared === undefined || open.isRunning) return Promise.resolve(open);
      return open.catchUp().then(() => open);
    }
    if (this.#deletion.isDeleted) return Promise.reject(new ConversationDeletedError(this.id));
    this.#opening ??= this.#resume()
      .catch((error: unknown) => {
        if (this.#deletion.isDeleted) throw new ConversationDeletedError(this.id);
        const damaged = ConversationDamagedError.of(this.id, error);
        this.#damage = damaged.reason;
        this.#deps.hold?.(this);
        throw damaged;
      })
      .finally(() => {
        this.#opening = undefined;
      });
    return this.#opening;
  }

  /** Called by the manager when a delete begins: no new run or message, and the listeners are told. */
  markDeleted(): void {
    this.#deletion.mark();
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
    return this.#deletion.isDeleted;
  }

  /** Calls `listener` once when the conversation is deleted (event sockets close). */
  onDeleted(listener: () => void): () => void {
    return this.#deletion.onDeleted(listener);
  }

  async #resume(): Promise<Conversation> {
    const conversation = await resumeRecovering({
      id: this.id,
      meta: this.meta,
      deps: this.#deps,
      onResumeAfterRestart: (resume) => {
        this.resumeAfterRestart = resume;
      },
    });
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
    this.#deps.hold?.(this);
    void this.refreshSubConversations();
    conversation.subscribe((event, index) => {
      if (event.kind === 'ObservationEvent' && event.tool_name === 'delegate') void this.refreshSubConversations();
      if (index === undefined) {
        this.#published.publish(event);
        return;
      }
      const changed = event.kind === 'ConversationStateUpdateEvent' ? {} : { updated_at: nowIso() };
      this.meta = { ...this.meta, last_event_at: event.timestamp, ...changed };
      if (event.kind === 'ConversationStateUpdateEvent') {
        if (event.key === 'execution_status' && typeof event.value === 'string') this.#recordStatus(event.value);
        if (event.key === 'title' && typeof event.value === 'string' && event.value !== this.meta.state_title) {
          this.meta = { ...this.meta, state_title: event.value };
          this.saveMeta().catch(() => undefined);
        }
      }
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
    return openConversationInfo(conversation, this.meta, {
      persistenceDir: this.#deps.persistenceDir,
      subConversationIds: this.#subConversationIds,
    });
  }

  onPublished(listener: (event: AnyEvent) => void): () => void {
    return this.#published.add(listener);
  }

  /** Publishes a `full_state` ConversationStateUpdateEvent (never persisted). */
  publishFullState(): void {
    if (this.#conversation === undefined || this.#published.size === 0) return;
    this.#published.publish(
      createEvent('ConversationStateUpdateEvent', { key: 'full_state', value: this.fullState() }),
    );
  }

  async sendUserMessage(message: Message): Promise<void> {
    await this.sendMessage(message, { run: true });
  }

  /** A user message; with `run`, starts a run or has the one in progress take it. Resolves to the log's length then. */
  async sendMessage(message: Message, options: { run: boolean } & SendMessageOptions): Promise<number> {
    if (message.role !== 'user') {
      throw new InvalidRequestError(`Only user messages can be sent to a conversation (role was '${message.role}')`);
    }
    if (this.#deletion.isDeleted) throw new ConversationDeletedError(this.id);
    const conversation = await this.open();
    if (options.run) await this.assertMayRun();
    await conversation.sendMessage(message, options);
    const recordedUpTo = conversation.log.length;
    await this.saveMeta();
    if (options.run) await this.#runs.runAfterMessage();
    return recordedUpTo;
  }

  /** After a change a run acts on (a raised budget): starts one, or the one going takes it (`runAfterMessage`). */
  runAfterChange(): Promise<void> {
    return this.#runs.runAfterMessage();
  }

  /** What a run would be refused for (`RunDriver.assertMayRun`), checked before recording what asks for one. */
  async assertMayRun(): Promise<void> {
    await this.#runs.assertMayRun(await this.open());
  }

  /**
   * Accepts the pending actions (reference `respond_to_confirmation` with accept): runs them, unless a run
   * is already going here or, on replicas, in another replica (whose run takes them: applied once).
   */
  acceptPendingActions(options: { leaseWaitMs?: number } = {}): Promise<void> {
    return this.#runs.acceptPendingActions(options);
  }

  /** Claims the next run right after a check, before any await (`RunDriver.reserve`): 409 when one is going/claimed. */
  reserveRun(): RunReservation {
    return this.#runs.reserve();
  }

  /** Starts a run in the background; resolves once it has begun or already ended. 409 when one is in progress. */
  startRun(options: { leaseWaitMs?: number } = {}): Promise<void> {
    return this.#runs.start(options);
  }

  /** Moves HEAD (reference `navigate_to`); 409 during a run, 404 for an unknown event. */
  async navigateTo(eventId: string | null): Promise<void> {
    const conversation = await this.open();
    if (this.#runs.isRunning) throw new ConversationBusyError();
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

  /** Sets the security analyzer from the reference's JSON (`securityAnalysisOf`: an unknown kind is a 422). */
  async setSecurityAnalyzer(analyzer: { kind: string } | null): Promise<void> {
    const analysis = securityAnalysisOf(analyzer);
    const conversation = await this.open();
    await conversation.setSecurityAnalyzer(analysis);
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

  /** Interrupts the run now (model call and tools aborted, an InterruptEvent, `paused`), else pauses; publishes. */
  async interrupt(): Promise<void> {
    const conversation = await this.open();
    await conversation.interrupt();
    this.publishFullState();
  }

  /** Resolves when the background run (if any) has ended, or after `timeoutMs`; true when it ended. */
  waitForRun(timeoutMs: number): Promise<boolean> {
    return this.#runs.waitFor(timeoutMs);
  }

  /**
   * Checkpoints and releases the conversation; a run still going (shutdown timeout) is only checkpointed, and its
   * tools' processes are ended all the same.
   */
  async close(): Promise<void> {
    const conversation = this.#conversation;
    if (conversation !== undefined) {
      if (!this.#runs.isRunning) await conversation.close();
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
    await this.#conversation?.endProcesses();
  }

  /** The open conversation (opening it when needed). */
  conversation(): Promise<Conversation> {
    return this.open();
  }
}
