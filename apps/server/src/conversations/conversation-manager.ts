import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Conversation, createSecretCipher, type SecretCipher, type SecretInput } from '@x/agent';
import type { Message } from '@x/events';
import type { FileStore } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';
import type { StartConversationRequest } from '../api/request-schemas.js';
import { conversationHex, hyphenate } from '../internal/conversation-ids.js';
import type { EventSocketHost } from '../websocket/event-socket-host.js';
import { buildAgent, storableAgentConfig } from './build-agent.js';
import { hooksOfRequest } from './conversation-hooks.js';
import { type ConversationMeta, nowIso, readConversationMeta } from './conversation-meta.js';
import { ConversationNotFoundError } from './errors/conversation-not-found-error.js';
import { InvalidConversationIdError } from './errors/invalid-conversation-id-error.js';
import { ManagedConversation, type ManagedConversationDeps } from './managed-conversation.js';

const HEX = /^[0-9a-f]{32}$/i;

export interface ConversationManagerOptions {
  store: FileStore;
  logger: FastifyBaseLogger;
  apiKeys: readonly string[];
  /** Human-readable root of the store, reported as `persistence_dir`. */
  persistenceDir: string;
  /** Parent of the default per-conversation workspaces (`<root>/<id hex>`). */
  workspaceRoot: string;
  secretKey?: string | undefined;
  serverApiKey?: string | undefined;
}

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
  /** hex → the conversation, or undefined while its meta.json has not been read. */
  readonly #entries = new Map<string, ManagedConversation | undefined>();
  readonly #loading = new Map<string, Promise<ManagedConversation | undefined>>();
  readonly #creating = new Map<string, Promise<{ conversation: ManagedConversation; created: boolean }>>();
  #closed = false;

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
    };
  }

  /** Lists the conversation directories (nothing inside them is read). */
  static async start(options: ConversationManagerOptions): Promise<ConversationManager> {
    const manager = new ConversationManager(options);
    for (const entry of await options.store.list('')) {
      const hex = entry.endsWith('/') ? entry.slice(0, -1) : undefined;
      if (hex !== undefined && HEX.test(hex)) manager.#entries.set(hex.toLowerCase(), undefined);
    }
    options.logger.info(
      { conversations: manager.#entries.size, store: options.persistenceDir },
      'conversation store listed',
    );
    return manager;
  }

  /** The conversation, reading its meta.json on first use; undefined when unknown. Malformed ids → 400. */
  async get(id: string): Promise<ManagedConversation | undefined> {
    const hex = conversationHex(id);
    if (hex === undefined) throw new InvalidConversationIdError(id);
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
    const conversation = new ManagedConversation(meta, this.#deps);
    this.#entries.set(hex, conversation);
    return conversation;
  }

  /** Like `get`, with 404 (or `statusCode`) for an unknown id. */
  async require(id: string, options: { statusCode?: number } = {}): Promise<ManagedConversation> {
    const conversation = await this.get(id);
    if (conversation === undefined) throw new ConversationNotFoundError(id, options);
    return conversation;
  }

  /** Every conversation with a readable meta.json. */
  async list(): Promise<ManagedConversation[]> {
    const all: ManagedConversation[] = [];
    const hexes = [...this.#entries.keys()];
    // Bounded parallelism: S3 reads are slow one by one, but thousands at once would exhaust sockets.
    for (let start = 0; start < hexes.length; start += 32) {
      const batch = await Promise.all(hexes.slice(start, start + 32).map((hex) => this.get(hex)));
      for (const conversation of batch) if (conversation !== undefined) all.push(conversation);
    }
    return all;
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
    const pending = this.#creating.get(hex);
    if (pending !== undefined) return pending.then(({ conversation }) => ({ conversation, created: false }));
    const creating = this.#create(hex, request).finally(() => this.#creating.delete(hex));
    this.#creating.set(hex, creating);
    return creating;
  }

  async #create(
    hex: string,
    request: StartConversationRequest,
  ): Promise<{ conversation: ManagedConversation; created: boolean }> {
    const existing = await this.get(hex);
    if (existing !== undefined) return { conversation: existing, created: false };
    // Everything that can be refused is checked before anything is written.
    const agent = buildAgent(request.agent, { cipher: this.#deps.cipher, serverApiKey: this.#deps.serverApiKey });
    const hooks = hooksOfRequest(request.hook_config);
    const workspace = request.workspace?.working_dir ?? join(this.#options.workspaceRoot, hex);
    await mkdir(workspace, { recursive: true });
    const secrets: Record<string, SecretInput> = {};
    for (const [name, value] of Object.entries(request.secrets ?? {})) {
      secrets[name] =
        typeof value === 'string'
          ? value
          : {
              ...(value.value === null || value.value === undefined ? {} : { value: value.value }),
              ...(value.description === null || value.description === undefined
                ? {}
                : { description: value.description }),
            };
    }
    const conversation = await Conversation.create({
      agent,
      workspace,
      store: this.store,
      persistenceDir: this.#options.persistenceDir,
      id: hyphenate(hex),
      maxIterationsPerRun: request.max_iterations,
      stuckDetection: request.stuck_detection,
      ...(request.confirmation_policy ? { confirmationPolicy: request.confirmation_policy } : {}),
      secrets,
      ...(this.#deps.secretKey === undefined ? {} : { secretKey: this.#deps.secretKey }),
      ...(hooks === undefined ? {} : { hooks }),
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
    };
    const managed = ManagedConversation.adopt(meta, conversation, this.#deps);
    await managed.saveMeta();
    this.#entries.set(hex, managed);
    this.logger.info({ conversationId: managed.id, model: agent.llm.model }, 'conversation created');
    managed.publishFullState();
    if (request.initial_message) {
      const { content } = request.initial_message;
      const message: Message = {
        role: 'user',
        content: typeof content === 'string' ? [{ cache_prompt: false, type: 'text', text: content }] : content,
        thinking_blocks: [],
      };
      // The reference always runs after an initial message, whatever its `run` flag says.
      await managed.sendMessage(message, { run: true });
    }
    return { conversation: managed, created: true };
  }

  /** Deletes the conversation's directory (not its workspace). False when unknown. */
  async delete(id: string): Promise<boolean> {
    const conversation = await this.get(id);
    if (conversation === undefined) return false;
    if (conversation.isRunning) {
      await conversation.pause();
      await conversation.waitForRun(30_000);
    }
    await conversation.close();
    this.#entries.delete(conversation.hex);
    await this.store.delete(conversation.hex);
    this.logger.info({ conversationId: conversation.id }, 'conversation deleted');
    return true;
  }

  /**
   * Shutdown: pauses every running conversation (a pause takes effect between steps), waits up to
   * `timeoutMs` for the runs to end, then checkpoints and releases every open conversation.
   */
  async close(timeoutMs = 30_000): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const open = [...this.#entries.values()].filter(
      (conversation): conversation is ManagedConversation => conversation?.isOpen === true,
    );
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
