import { randomUUID } from 'node:crypto';
import { Conversation, createSecretCipher, parseConfirmationPolicy, type SecretCipher } from '@x/agent';
import type { FileStore } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import type { StartConversationRequest } from '../api/request-schemas.js';
import type { ForkConversationRequest } from '../api/tree-schemas.js';
import { conversationHex, hyphenate } from '../internal/conversation-ids.js';
import type { EventSocketHost } from '../websocket/event-socket-host.js';
import { resolveWorkingDir } from '../workspace/working-dir.js';
import { type BuildAgentOptions, buildAgent, buildAgents, storableAgentConfig, storableAgents } from './build-agent.js';
import { ClientTools } from './client-tools.js';
import { ConversationDeletions } from './conversation-deletions.js';
import { ConversationEntries } from './conversation-entries.js';
import { hooksOfRequest } from './conversation-hooks.js';
import type { ConversationManagerOptions } from './conversation-manager-options.js';
import { type ConversationMeta, nowIso, readConversationMeta, writeForkMeta } from './conversation-meta.js';
import { type GuardedConversationStore, guardConversationStore } from './conversation-store-guard.js';
import { ConversationDeletedError } from './errors/conversation-deleted-error.js';
import { ConversationNotFoundError } from './errors/conversation-not-found-error.js';
import { InvalidConversationIdError } from './errors/invalid-conversation-id-error.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';
import { releaseIdleConversations, startIdleSweep } from './idle-sweep.js';
import { initialMessage } from './initial-message.js';
import { ListChanges } from './list-changes.js';
import { listConversationDirectories, loadConversations } from './list-conversations.js';
import { ManagedConversation, type ManagedConversationDeps } from './managed-conversation.js';
import { secretInputsOf } from './secret-inputs.js';

export type { ConversationManagerOptions } from './conversation-manager-options.js';

/**
 * Owns the server's conversations. Start-up lists the conversation directories only; meta.json is read
 * the first time a conversation is needed and the Conversation (its log) is opened on first use, so
 * start-up cost does not grow with the number of events. Also the WebSocket side's `EventSocketHost`.
 */
export class ConversationManager implements EventSocketHost {
  readonly apiKeys: readonly string[];
  logger: FastifyBaseLogger;
  readonly store: FileStore;
  readonly #options: ConversationManagerOptions;
  readonly #deps: ManagedConversationDeps;
  readonly #entries = new ConversationEntries();
  readonly #loading = new Map<string, Promise<ManagedConversation | undefined>>();
  readonly #creating = new Map<string, Promise<{ conversation: ManagedConversation; created: boolean }>>();
  /** Each conversation's guarded view of the store, revoked when it is deleted. */
  readonly #guards = new WeakMap<ManagedConversation, GuardedConversationStore>();
  /** The deletes under way, unfinished (tombstoned), and done by this process. */
  readonly #deletions = new ConversationDeletions();
  readonly #listChanges = new ListChanges();
  #closed = false;
  #releaseTimer: NodeJS.Timeout | undefined;

  private constructor(options: ConversationManagerOptions) {
    this.#options = options;
    this.apiKeys = options.apiKeys;
    this.logger = options.logger;
    this.store = options.store;
    const cipher: SecretCipher | undefined =
      options.secretKey === undefined ? undefined : createSecretCipher(options.secretKey);
    this.#deps = {
      store: options.store,
      logger: options.logger,
      persistenceDir: options.persistenceDir,
      secretKey: options.secretKey,
      cipher,
      serverApiKey: options.serverApiKey,
      shared: options.shared,
      interruptedActions: options.interruptedActions,
      openEventLog: options.openEventLog,
      sandboxing: options.sandboxing,
      workspaceRoot: options.workspaceRoot,
      onMetaChange: options.onMetaChange,
      now: options.now,
      signingKey: options.signingKey,
      approvalDeciders: options.approvalDeciders,
      clientTools: new ClientTools(),
      hold: (conversation) => this.#entries.hold(conversation),
    };
  }

  /** Lists the conversation directories (nothing inside them is read). */
  static async start(options: ConversationManagerOptions): Promise<ConversationManager> {
    const manager = new ConversationManager(options);
    // Deletes a crash (or a failing store) cut short are finished first: a deleted conversation never comes back.
    await manager.#deletions.finishInterrupted(options.store, options.logger);
    for (const hex of await listConversationDirectories(options.store)) {
      if (!manager.#deletions.isDeleted(hex)) manager.#entries.setUnread(hex);
    }
    options.logger.info(
      { conversations: manager.#entries.size, store: options.persistenceDir },
      'conversation store listed',
    );
    manager.#releaseTimer = startIdleSweep(options, () => manager.releaseIdle());
    return manager;
  }

  /** The conversation, reading its meta.json on first use; undefined when unknown. Malformed ids → 400. */
  async get(id: string): Promise<ManagedConversation | undefined> {
    const hex = conversationHex(id);
    if (hex === undefined) throw new InvalidConversationIdError(id);
    // Another replica may have created it since this one listed the store.
    if (!this.#entries.has(hex) && this.#options.shared !== undefined && !this.#deletions.isDeleted(hex)) {
      if (await this.store.exists(`${hex}/meta.json`)) this.#entries.setUnread(hex);
    }
    if (!this.#entries.has(hex)) return undefined;
    const known = this.#entries.get(hex);
    if (known !== undefined) return known;
    let loading = this.#loading.get(hex);
    if (loading === undefined) {
      loading = this.#load(hex).finally(() => this.#loading.delete(hex));
      this.#loading.set(hex, loading);
    }
    return loading;
  }

  async #load(hex: string): Promise<ManagedConversation | undefined> {
    let meta: ConversationMeta | undefined;
    try {
      meta = await readConversationMeta(this.store, hex);
    } catch (error) {
      this.logger.error({ conversationId: hex, err: error }, 'unreadable meta.json: conversation skipped');
      return undefined;
    }
    if (meta === undefined || !this.#entries.has(hex)) return undefined;
    const guard = guardConversationStore(this.store, hyphenate(hex));
    const conversation = new ManagedConversation(meta, { ...this.#deps, store: guard.store });
    this.#guards.set(conversation, guard);
    this.#entries.set(conversation);
    return conversation;
  }

  /**
   * Releases the open conversations not used for `idleReleaseMs`, then, while more than `maxOpenConversations`
   * are open, the least recently used of the rest (unused for a tenth of that at least). Conversations in use
   * (running, watched by an event socket, being opened) are never released. Returns how many were released.
   */
  async releaseIdle(): Promise<number> {
    const released = await releaseIdleConversations(this.#entries.held(), { ...this.#options, logger: this.logger });
    this.#entries.holdWeakly(released);
    return released.length;
  }

  /** True when the conversation was opened and found damaged (listings leave it out). */
  isKnownDamaged(hex: string): boolean {
    return this.#entries.get(hex)?.isDamaged === true;
  }

  /** True while the conversation is being deleted, or once this process deleted it (errors of late requests → 409). */
  wasDeleted(id: string): boolean {
    const hex = conversationHex(id);
    return hex !== undefined && this.#deletions.wasDeleted(hex);
  }

  /** Like `get`, with 404 (or `statusCode`) for an unknown id. */
  async require(id: string, options: { statusCode?: number } = {}): Promise<ManagedConversation> {
    const conversation = await this.get(id);
    if (conversation === undefined) throw new ConversationNotFoundError(id, options);
    return conversation;
  }

  /** Every conversation with a readable meta.json. */
  list(): Promise<ManagedConversation[]> {
    return loadConversations([...this.#entries.keys()], (hex) => this.get(hex));
  }

  /** EventSocketHost: the conversation, opened, or undefined when unknown or the id is malformed. */
  async open(conversationId: string): Promise<ManagedConversation | undefined> {
    if (conversationHex(conversationId) === undefined) return undefined;
    const conversation = await this.get(conversationId);
    if (conversation === undefined) return undefined;
    await conversation.open();
    return conversation;
  }

  /** Creates the conversation, or returns the existing one with that id (`created: false`). */
  create(request: StartConversationRequest): Promise<{ conversation: ManagedConversation; created: boolean }> {
    const hex = conversationHex(request.conversation_id ?? randomUUID());
    if (hex === undefined) throw new InvalidConversationIdError(String(request.conversation_id));
    if (request.agent.x_offline_script !== undefined && request.agent.x_offline_script !== null) {
      if (this.#options.allowScriptedAgents !== true) {
        throw new InvalidRequestError(
          'agent.x_offline_script: scripted (offline) agents are accepted only by a server started for testing (allowScriptedAgents / x serve --testing)',
        );
      }
    }
    // A conversation being deleted cannot be recreated until its delete has finished.
    if (this.#deletions.blocksCreate(hex)) {
      return Promise.reject(new ConversationDeletedError(hyphenate(hex)));
    }
    const pending = this.#creating.get(hex);
    if (pending !== undefined) return pending.then(({ conversation }) => ({ conversation, created: false }));
    const creating = this.#create(hex, request).finally(() => this.#creating.delete(hex));
    this.#creating.set(hex, creating);
    return creating;
  }

  /**
   * Calls `listener` whenever a conversation is created, forked or deleted through this manager (not those another
   * replica makes); returns the function that stops it.
   */
  onListChanged(listener: () => void): () => void {
    return this.#listChanges.on(listener);
  }

  /** What a request's LLM is built with: the server's secret key (for stored keys) and its own API key. */
  get llmKeys(): BuildAgentOptions {
    return { cipher: this.#deps.cipher, serverApiKey: this.#deps.serverApiKey };
  }

  /** The tools each conversation's client runs (the AG-UI face sets them for a run). */
  get clientTools(): ClientTools {
    return this.#deps.clientTools;
  }

  async #create(
    hex: string,
    request: StartConversationRequest,
  ): Promise<{ conversation: ManagedConversation; created: boolean }> {
    const existing = await this.get(hex);
    if (existing !== undefined) return { conversation: existing, created: false };
    // Everything that can be refused is checked before anything is written.
    this.#options.sandboxing.assertCanRun();
    const sandbox = this.#options.sandboxing.policyFor(request.sandbox);
    const agent = buildAgent(request.agent, this.llmKeys);
    const agents = buildAgents(request.agents, this.llmKeys);
    const hooks = hooksOfRequest(request.hook_config);
    const workspace = await resolveWorkingDir(this.#options.workspaceRoot, hex, request.workspace?.working_dir);
    const guard = guardConversationStore(this.store, hyphenate(hex));
    const deps: ManagedConversationDeps = { ...this.#deps, store: guard.store };
    const secrets = secretInputsOf(request.secrets);
    const conversation = await Conversation.create({
      agent,
      ...(agents === undefined ? {} : { agents }),
      workspace,
      store: guard.store,
      persistenceDir: this.#options.persistenceDir,
      id: hyphenate(hex),
      maxIterationsPerRun: request.max_iterations,
      stuckDetection: request.stuck_detection,
      workspaceCheckpoints: request.workspace_checkpoints,
      ...(request.confirmation_policy ? { confirmationPolicy: request.confirmation_policy } : {}),
      secrets,
      ...(this.#deps.secretKey === undefined ? {} : { secretKey: this.#deps.secretKey }),
      ...(hooks === undefined ? {} : { hooks }),
      sandbox,
      openSandbox: this.#options.sandboxing.open,
      ...(request.budget
        ? { budget: { maxUsd: request.budget.max_usd, allowUnknownCost: request.budget.allow_unknown_cost } }
        : {}),
      ...(request.approval_rules ? { approvalRules: request.approval_rules } : {}),
      ...(this.#options.signingKey === undefined ? {} : { signingKey: this.#options.signingKey }),
      clientTools: () => this.#deps.clientTools.get(hyphenate(hex)),
      ...(this.#options.openEventLog === undefined ? {} : { openEventLog: this.#options.openEventLog }),
      ...this.#options.shared,
    });
    const now = nowIso();
    const meta: ConversationMeta = {
      id: hex,
      title: request.title ?? null,
      tags: request.tags ?? {},
      created_at: now,
      updated_at: now,
      agent: storableAgentConfig(request.agent, this.#deps.cipher),
      workspace: { working_dir: workspace },
      max_iterations: request.max_iterations,
      stuck_detection: request.stuck_detection,
      secret_names: Object.keys(secrets),
      execution_status: conversation.state.execution_status,
      hook_config: request.hook_config ?? null,
      sandbox,
      workspace_checkpoints: request.workspace_checkpoints,
      ...(request.approval_rules ? { approval_rules: request.approval_rules } : {}),
      ...(request.agents ? { agents: storableAgents(request.agents, this.#deps.cipher) } : {}),
    };
    const managed = ManagedConversation.adopt(meta, conversation, deps);
    this.#guards.set(managed, guard);
    await managed.saveMeta();
    this.#deletions.forget(hex);
    this.#entries.set(managed);
    this.#listChanges.emit();
    this.logger.info({ conversationId: managed.id, model: agent.llm.model }, 'conversation created');
    managed.publishFullState();
    // The reference always runs after an initial message, whatever its `run` flag says.
    if (request.initial_message) await managed.sendMessage(initialMessage(request.initial_message), { run: true });
    return { conversation: managed, created: true };
  }

  /**
   * Forks `id` (reference `POST /{id}/fork`): the library's `fork` copies the events (all, or the branch up to
   * `fromEventId`) into a new directory; the fork gets its own meta.json (same agent and workspace, fork
   * provenance, new title/tags) and its own guarded store, so deleting either conversation leaves the other.
   */
  async fork(id: string, request: ForkConversationRequest): Promise<ManagedConversation> {
    const source = await this.require(id);
    const hex = conversationHex(request.id ?? randomUUID());
    if (hex === undefined) throw new InvalidConversationIdError(String(request.id));
    if (this.#entries.has(hex) || this.#deletions.blocksCreate(hex)) {
      throw new InvalidRequestError(`Conversation ${hyphenate(hex)} already exists`, { statusCode: 409 });
    }
    const opened = await source.open();
    const forked = await opened.fork({
      id: hyphenate(hex),
      resetMetrics: request.reset_metrics,
      // The source's policy, as the reference's server keeps the stored one: the library's NeverConfirm default would
      // let whoever may fork (not only `approvalDeciders`, who alone may change a policy) run actions unasked.
      confirmationPolicy: parseConfirmationPolicy(opened.state.confirmation_policy),
      ...(request.from_event_id == null ? {} : { fromEventId: request.from_event_id }),
      ...(request.title == null ? {} : { title: request.title }),
    });
    await forked.close();
    const now = nowIso();
    const meta: ConversationMeta = {
      ...source.meta,
      id: hex,
      title: request.title ?? null,
      tags: request.tags ?? source.meta.tags,
      created_at: now,
      updated_at: now,
      secret_names: [],
      execution_status: 'idle',
      forked_from_conversation_id: source.id,
      forked_from_event_id: request.from_event_id ?? null,
    };
    await writeForkMeta(this.store, source.hex, meta);
    this.#deletions.forget(hex);
    this.#entries.setUnread(hex);
    this.#listChanges.emit();
    const conversation = await this.require(hex);
    await conversation.open();
    this.logger.info({ conversationId: conversation.id, source: source.id }, 'conversation forked');
    return conversation;
  }

  /**
   * Deletes the conversation's directory (not its workspace); false when unknown. Final: from the moment it
   * begins, later requests see an unknown conversation (404) and a second delete gets 409; a tombstone is
   * written first so that a crash cannot resurrect it; a running conversation is interrupted (bounded wait); then
   * its store is revoked, so nothing under way (requests, the run) can write again, and the files are removed.
   */
  async delete(id: string): Promise<boolean> {
    const hex = conversationHex(id);
    if (hex === undefined) throw new InvalidConversationIdError(id);
    if (this.#deletions.isDeleting(hex)) throw new ConversationDeletedError(hyphenate(hex));
    const conversation = await this.get(id);
    if (this.#deletions.isDeleting(hex)) throw new ConversationDeletedError(hyphenate(hex));
    if (conversation === undefined) return false;
    this.#entries.delete(hex);
    this.#listChanges.emit();
    await this.#deletions.delete(hex, conversation, {
      store: this.store,
      logger: this.logger,
      runTimeoutMs: this.#options.deleteRunTimeoutMs ?? 10_000,
      revoke: async () => {
        await this.#guards.get(conversation)?.revoke();
      },
      onNotDeleted: () => {
        this.#entries.set(conversation);
        this.#listChanges.emit();
      },
    });
    return true;
  }

  /**
   * Shutdown: pauses every running conversation (a pause takes effect between steps), waits up to
   * `timeoutMs` for the runs to end, then checkpoints and releases every open conversation.
   */
  async close(timeoutMs = 30_000): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#releaseTimer !== undefined) clearInterval(this.#releaseTimer);
    const open = [...this.#entries.held()].filter((conversation) => conversation.isOpen);
    const running = open.filter((conversation) => conversation.isRunning);
    await Promise.all(
      running.map((conversation) =>
        conversation.pause().catch((error: unknown) => {
          this.logger.error({ conversationId: conversation.id, err: error }, 'pause on shutdown failed');
        }),
      ),
    );
    const deadline = Date.now() + timeoutMs;
    for (const conversation of running) {
      const ended = await conversation.waitForRun(Math.max(0, deadline - Date.now()));
      if (!ended) this.logger.warn({ conversationId: conversation.id }, 'run still going at shutdown timeout');
    }
    await Promise.all(
      open.map((conversation) =>
        conversation.close().catch((error: unknown) => {
          this.logger.error({ conversationId: conversation.id, err: error }, 'checkpoint on shutdown failed');
        }),
      ),
    );
    this.logger.info({ paused: running.length, closed: open.length }, 'conversations closed');
  }
}
