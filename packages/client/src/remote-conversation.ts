import { type AnyEvent, type Message, parseEvent } from '@x/events';
import { RemoteConversationNotFoundError } from './errors/remote-conversation-not-found-error.js';
import { RemoteRequestError } from './errors/remote-request-error.js';
import { RestClient } from './internal/rest-client.js';
import { RunWaiter } from './internal/run-waiter.js';
import type {
  RemoteAttachOptions,
  RemoteConversationListener,
  RemoteCreateOptions,
  RemoteForkOptions,
  RemoteRunResult,
  RemoteSecretInput,
} from './remote-conversation-options.js';
import { initialStateOrder, isNewerStateUpdate, type StateOrder, stateOrderAfter } from './state-order.js';
import { type ConversationEventStream, streamConversationEvents } from './stream-conversation-events.js';

/** The cached ConversationInfo / state JSON of a remote conversation. */
export type RemoteConversationState = Readonly<Record<string, unknown>> & {
  readonly id?: string;
  readonly execution_status?: string;
};

/**
 * A conversation that lives on an agent server, with the interface of the local `Conversation` where
 * it makes sense. It keeps one event stream open (reconnecting and resuming by index, so no event is
 * lost or repeated), keeps `state` current from full_state snapshots and field updates (reference
 * §11.6), and sends commands over REST.
 */
export class RemoteConversation {
  readonly id: string;
  readonly serverUrl: string;
  readonly #rest: RestClient;
  readonly #options: RemoteAttachOptions;
  readonly #listeners = new Set<RemoteConversationListener>();
  readonly #waiters = new Set<RunWaiter>();
  #state: Record<string, unknown>;
  #stream: ConversationEventStream | undefined;
  /** `nextIndex` as the closed stream left it: what a later attach resumes from (its `fromIndex`). */
  #nextIndexAtClose = 0;
  /** The first full_state of each connection describes the past, not a run that just ended. */
  #awaitingSubscribeSnapshot = true;
  #lastError: string | undefined;
  #stateOrder: StateOrder = initialStateOrder;

  private constructor(init: {
    rest: RestClient;
    id: string;
    info: Record<string, unknown>;
    options: RemoteAttachOptions;
  }) {
    this.#rest = init.rest;
    this.serverUrl = init.rest.serverUrl;
    this.id = init.id;
    this.#state = { ...init.info };
    this.#options = init.options;
    if (init.options.onEvent !== undefined) this.#listeners.add(init.options.onEvent);
  }

  /** Starts a conversation on the server (`POST /api/conversations`) and opens its event stream. */
  static async create(serverUrl: string, options: RemoteCreateOptions = {}): Promise<RemoteConversation> {
    const rest = new RestClient(serverUrl, options.apiKey);
    const body: Record<string, unknown> = {
      ...options.extra,
      ...(options.agent === undefined ? {} : { agent: options.agent }),
      workspace: { working_dir: options.workspace ?? '.' },
      initial_message: null,
      ...(options.id === undefined ? {} : { conversation_id: options.id }),
      ...(options.confirmationPolicy === undefined ? {} : { confirmation_policy: options.confirmationPolicy }),
      ...(options.maxIterations === undefined ? {} : { max_iterations: options.maxIterations }),
      ...(options.secrets === undefined ? {} : { secrets: secretsBody(options.secrets) }),
    };
    const info = await rest.request<Record<string, unknown>>('POST', '/api/conversations', { body });
    const id = info.id ?? info.conversation_id;
    if (typeof id !== 'string') {
      throw new RemoteRequestError({
        method: 'POST',
        url: `${rest.serverUrl}/api/conversations`,
        status: 200,
        detail: 'the response has no conversation id',
      });
    }
    return RemoteConversation.#open(rest, id, info, options);
  }

  /**
   * Connects to an existing conversation. When the server does not know it: with `options.agent` it is
   * created with that id (as the reference client does), otherwise `RemoteConversationNotFoundError`.
   */
  static async attach(serverUrl: string, id: string, options: RemoteAttachOptions = {}): Promise<RemoteConversation> {
    const rest = new RestClient(serverUrl, options.apiKey);
    let info: Record<string, unknown>;
    try {
      info = await rest.request('GET', `/api/conversations/${encodeURIComponent(id)}`, { conversationId: id });
    } catch (error) {
      if (RemoteConversationNotFoundError.isInstance(error) && options.agent !== undefined) {
        return RemoteConversation.create(serverUrl, { ...options, id });
      }
      throw error;
    }
    return RemoteConversation.#open(rest, typeof info.id === 'string' ? info.id : id, info, options);
  }

  static async #open(
    rest: RestClient,
    id: string,
    info: Record<string, unknown>,
    options: RemoteAttachOptions,
  ): Promise<RemoteConversation> {
    const conversation = new RemoteConversation({ rest, id, info, options });
    await conversation.#connect();
    return conversation;
  }

  /** The cached state: the last full_state snapshot with later field updates applied. */
  get state(): RemoteConversationState {
    return this.#state;
  }

  /**
   * Index the next persisted event will have (events received over the stream so far); after `close()`, where the
   * stream stopped, so that a later attach can resume from it.
   */
  get nextIndex(): number {
    return this.#stream?.nextIndex ?? this.#nextIndexAtClose;
  }

  /** Calls `listener` for every later event. Returns the unsubscribe function. */
  subscribe(listener: RemoteConversationListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Adds a user message (`POST .../events`, without starting a run). */
  async sendMessage(message: string | Message, options: { sender?: string } = {}): Promise<void> {
    const content = typeof message === 'string' ? [{ type: 'text', text: message }] : message.content;
    const role = typeof message === 'string' ? 'user' : message.role;
    await this.#post('events', {
      role,
      content,
      run: false,
      ...(options.sender === undefined ? {} : { sender: options.sender }),
    });
  }

  /**
   * Starts a run (`POST .../run`; 409, already running, is fine) and waits until it ends: a full_state
   * snapshot published after the run, or the one a reconnection starts with after the run ended while the stream was
   * down (or REST polling, as a fallback), shows a status other than `running`. `error` and `stuck` throw `RemoteRunError` with the last ConversationErrorEvent.
   */
  async run(): Promise<RemoteRunResult> {
    const waiter = new RunWaiter({
      conversationId: this.id,
      statusNow: this.#state.execution_status,
      lastError: () => this.#lastError,
      poll: () => this.#rest.request<Record<string, unknown>>('GET', this.#path(''), { conversationId: this.id }),
      pollIntervalMs: this.#options.pollIntervalMs ?? 2_000,
      timeoutMs: this.#options.runTimeoutMs ?? 3_600_000,
      snapshotGraceMs: this.#options.snapshotGraceMs ?? 30_000,
    });
    this.#waiters.add(waiter);
    try {
      await this.#post('run', {}, [409]);
      waiter.started();
      return await waiter.result;
    } finally {
      waiter.dispose();
      this.#waiters.delete(waiter);
    }
  }

  /** Pauses between steps (`POST .../pause`). */
  async pause(): Promise<void> {
    await this.#post('pause', {});
  }

  /**
   * Interrupts now (`POST .../interrupt`): the server aborts the model call and running tools, records an
   * InterruptEvent and pauses; a `run()` in progress here resolves with status `paused`.
   */
  async interrupt(): Promise<void> {
    await this.#post('interrupt', {});
  }

  /**
   * Forks the conversation on the server (`POST .../fork`, reference body) and returns the fork, attached
   * with this conversation's options. `fromEventId`: only the branch up to that event, which becomes HEAD.
   */
  async fork(options: RemoteForkOptions = {}): Promise<RemoteConversation> {
    const body: Record<string, unknown> = { reset_metrics: options.resetMetrics ?? true };
    if (options.id !== undefined) body.id = options.id;
    if (options.title !== undefined) body.title = options.title;
    if (options.tags !== undefined) body.tags = options.tags;
    if (options.fromEventId !== undefined) body.from_event_id = options.fromEventId;
    const info = await this.#post<Record<string, unknown>>('fork', body);
    const id = info.id;
    if (typeof id !== 'string') {
      throw new RemoteRequestError({
        method: 'POST',
        url: `${this.serverUrl}${this.#path('fork')}`,
        status: 201,
        detail: 'the response has no conversation id',
      });
    }
    // Neither this conversation's listener nor a start in its log: the fork's log is another one.
    const { onEvent: _listener, fromIndex: _start, ...inherited } = this.#options;
    return RemoteConversation.#open(this.#rest, id, info, { ...inherited, ...options.attach });
  }

  /**
   * Moves HEAD to `eventId` (`null`: empty HEAD) with `POST .../navigate`, then refreshes `state` (the
   * reference never broadcasts `leaf_event_id`).
   */
  async navigateTo(eventId: string | null): Promise<RemoteConversationState> {
    const info = await this.#post<Record<string, unknown>>('navigate', { event_id: eventId });
    this.#state = { ...this.#state, ...info };
    return this.#state;
  }

  /** HEAD of the conversation tree as last seen (`leaf_event_id`). */
  get leafEventId(): string | undefined {
    const leaf = this.#state.leaf_event_id;
    return typeof leaf === 'string' ? leaf : undefined;
  }

  /** Adds or replaces secrets (`POST .../secrets`): a string or `{ value, description }` per name. */
  async updateSecrets(secrets: Readonly<Record<string, RemoteSecretInput>>): Promise<void> {
    await this.#post('secrets', { secrets: secretsBody(secrets) });
  }

  /** `'llm'` (the reference's LLMSecurityAnalyzer) or `null`/`'none'` (no analysis): `POST .../security_analyzer`. */
  async setSecurityAnalyzer(
    analyzer: 'llm' | 'none' | null | ({ kind: string } & Record<string, unknown>),
  ): Promise<void> {
    const body = analyzer === 'llm' ? { kind: 'LLMSecurityAnalyzer' } : analyzer === 'none' ? null : analyzer;
    await this.#post('security_analyzer', { security_analyzer: body });
  }

  /** Rejects the actions waiting for confirmation (`POST .../events/respond_to_confirmation`). */
  async rejectPendingActions(reason = 'User rejected the action'): Promise<void> {
    await this.#post('events/respond_to_confirmation', { accept: false, reason });
  }

  /** Accepts the actions waiting for confirmation and waits for the run that executes them. */
  async confirmPendingActions(): Promise<RemoteRunResult> {
    return this.run();
  }

  /** E.g. `{ kind: 'AlwaysConfirm' }`. */
  async setConfirmationPolicy(policy: { kind: string } & Record<string, unknown>): Promise<void> {
    await this.#post('confirmation_policy', { policy });
  }

  /** Forces a condensation (`POST .../condense`). */
  async condense(): Promise<void> {
    await this.#post('condense', {});
  }

  /** A side question; records nothing (`POST .../ask_agent`). */
  async askAgent(question: string): Promise<string> {
    const body = await this.#post<{ response: string }>('ask_agent', { question });
    return body.response;
  }

  /**
   * Generates, records and returns a title (`POST .../generate_title`). `llm`: the model that writes it, in the
   * reference's LLM fields (`model`, `base_url`, `api_key`, …); else the agent's.
   */
  async generateTitle(options: { maxLength?: number; llm?: Readonly<Record<string, unknown>> } = {}): Promise<string> {
    const body = await this.#post<{ title: string }>('generate_title', {
      ...(options.maxLength === undefined ? {} : { max_length: options.maxLength }),
      ...(options.llm === undefined ? {} : { llm: options.llm }),
    });
    return body.title;
  }

  /** All events of the conversation, oldest first, read page by page from `GET .../events/search`. */
  async *events(): AsyncGenerator<AnyEvent, void, undefined> {
    let pageId: string | undefined;
    do {
      const page = await this.#rest.request<{ items: unknown[]; next_page_id?: string | null }>(
        'GET',
        this.#path('events/search'),
        {
          conversationId: this.id,
          query: { limit: 100, page_id: pageId },
        },
      );
      for (const item of page.items) yield parseEvent(item);
      pageId = page.next_page_id ?? undefined;
    } while (pageId !== undefined);
  }

  /** Refreshes `state` from `GET /api/conversations/{id}`. */
  async refresh(): Promise<RemoteConversationState> {
    const info = await this.#rest.request<Record<string, unknown>>('GET', this.#path(''), { conversationId: this.id });
    this.#state = { ...this.#state, ...info };
    return this.#state;
  }

  /** Closes the event stream. The conversation goes on living on the server. */
  async close(): Promise<void> {
    const stream = this.#stream;
    this.#stream = undefined;
    stream?.close();
    await stream?.done.catch(() => undefined);
    if (stream !== undefined) this.#nextIndexAtClose = stream.nextIndex;
    this.#listeners.clear();
  }

  async #connect(): Promise<void> {
    const stream = streamConversationEvents(this.serverUrl, this.id, {
      ...(this.#options.apiKey === undefined ? {} : { apiKey: this.#options.apiKey }),
      ...(this.#options.reconnect === undefined ? {} : { reconnect: this.#options.reconnect }),
      ...(this.#options.resume === undefined ? {} : { resume: this.#options.resume }),
      ...(this.#options.fromIndex === undefined ? {} : { fromIndex: this.#options.fromIndex }),
      ...(this.#options.readyTimeoutMs === undefined ? {} : { readyTimeoutMs: this.#options.readyTimeoutMs }),
      onEvent: (event, index) => this.#onEvent(event, index),
      onDisconnect: () => {
        this.#awaitingSubscribeSnapshot = true;
        for (const waiter of this.#waiters) waiter.onDisconnect();
      },
    });
    this.#stream = stream;
    stream.done.catch((error: unknown) => {
      for (const waiter of this.#waiters) waiter.fail(error);
    });
    await stream.ready;
  }

  #onEvent(event: AnyEvent, index: number | undefined): void {
    if (event.kind === 'ConversationStateUpdateEvent') {
      if (event.key === 'full_state') {
        // A shallow merge, as the reference client: keys the snapshot lacks survive.
        if (typeof event.value === 'object' && event.value !== null) this.#state = { ...this.#state, ...event.value };
        this.#stateOrder = stateOrderAfter(event);
        const published = !this.#awaitingSubscribeSnapshot;
        this.#awaitingSubscribeSnapshot = false;
        for (const waiter of this.#waiters) {
          if (published) waiter.onSnapshot(this.#state.execution_status);
          else waiter.onReconnectSnapshot(this.#state.execution_status);
        }
      } else if (isNewerStateUpdate(this.#stateOrder, event, index)) {
        this.#state = { ...this.#state, [event.key]: event.value };
        if (event.key === 'execution_status') for (const waiter of this.#waiters) waiter.onStatus(event.value);
      }
    } else if (event.kind === 'ConversationErrorEvent') {
      this.#lastError = `${event.code}: ${event.detail}`;
      for (const waiter of this.#waiters) waiter.onError();
    }
    for (const listener of this.#listeners) listener(event, index);
  }

  #path(suffix: string): string {
    const base = `/api/conversations/${encodeURIComponent(this.id)}`;
    return suffix === '' ? base : `${base}/${suffix}`;
  }

  #post<T = unknown>(suffix: string, body: unknown, allow: readonly number[] = []): Promise<T> {
    return this.#rest.request<T>('POST', this.#path(suffix), { body, conversationId: this.id, allow });
  }
}

/**
 * The reference's `secrets` body: strings as they are, objects as StaticSecrets. Built with `Object.fromEntries`,
 * which defines own data properties: an assignment would hand a secret named `__proto__` to the prototype setter,
 * and it would never reach the server.
 */
function secretsBody(secrets: Readonly<Record<string, RemoteSecretInput>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(secrets).map(([name, value]) => [
      name,
      typeof value === 'string'
        ? value
        : { kind: 'StaticSecret', value: value.value ?? null, description: value.description ?? null },
    ]),
  );
}
