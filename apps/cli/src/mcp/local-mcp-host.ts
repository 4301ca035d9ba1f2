import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Conversation, ConversationOptions } from '@x/agent';
import type { AnyEvent } from '@x/events';
import type {
  McpConversation,
  McpConversationHost,
  McpConversationPage,
  McpListPosition,
  McpWatchOptions,
} from '@x/server';
import { isConversationDir } from '../resolve-conversation.js';
import { DataDirWatch } from './data-dir-watch.js';

type AgentModule = typeof import('@x/agent');
type ServerModule = typeof import('@x/server');

export interface LocalMcpHostOptions {
  agentModule: AgentModule;
  serverModule: ServerModule;
  dataDir: string;
  /** What every conversation is made and resumed with (agent, workspace, sandbox, ...), less the data dir. */
  conversationOptions: Omit<ConversationOptions, 'id' | 'persistenceDir'>;
  /** The confirmation policy of new conversations (`--confirm`). */
  confirmationPolicy?: ConversationOptions['confirmationPolicy'];
  /** Where a failure nobody asked about goes (stderr): a run that failed outside its own recorded error. */
  warn: (message: string) => void;
}

/** Ids the data directory can hold: hyphenated UUIDs or their 32-hex directory names. Paths are never opened. */
const ID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * `x mcp`'s conversations: those of the CLI's data directory, each run in this process on the agent `x run`
 * would use. A run is this process's, not the MCP request's: a cancelled call stops waiting, the run goes on;
 * `close` pauses what still runs when the client goes away, so that `run` (or `x run --resume`) continues it.
 */
export class LocalMcpHost implements McpConversationHost {
  readonly acceptsCreateBody = false;
  readonly #options: LocalMcpHostOptions;
  readonly #open = new Map<string, LocalConversation>();
  readonly #listChanged = new Set<() => void>();
  /** Watches the data directory while a session listens for list changes. */
  #watch: DataDirWatch | undefined;
  /** Who is told when a conversation (by its directory's name) leaves the data directory: its resources' watches. */
  readonly #deletionListeners = new Map<string, Set<() => void>>();
  /** Watches the data directory while a conversation's deletion is listened for. */
  #deletionWatch: DataDirWatch | undefined;

  constructor(options: LocalMcpHostOptions) {
    this.#options = options;
  }

  async create(): Promise<McpConversation> {
    const { agentModule, dataDir, conversationOptions, confirmationPolicy } = this.#options;
    const conversation = await agentModule.Conversation.create({
      ...conversationOptions,
      persistenceDir: dataDir,
      ...(confirmationPolicy === undefined ? {} : { confirmationPolicy }),
    });
    const adopted = this.#adopt(conversation);
    // Heard now, not when the directory's event comes round: a client that lists next finds it.
    this.#watch?.rescan();
    return adopted;
  }

  /**
   * Conversations made or deleted in the data directory, by this process or any other (`x run`, another `x mcp`):
   * the face sends `notifications/resources/list_changed`.
   */
  onListChanged(listener: () => void): () => void {
    this.#listChanged.add(listener);
    this.#watch ??= new DataDirWatch({
      dataDir: this.#options.dataDir,
      isConversation: isConversationDir,
      onChange: () => {
        for (const notify of [...this.#listChanged]) notify();
      },
      warn: this.#options.warn,
    });
    return () => {
      this.#listChanged.delete(listener);
      if (this.#listChanged.size > 0) return;
      this.#watch?.stop();
      this.#watch = undefined;
    };
  }

  async find(id: string): Promise<McpConversation | undefined> {
    if (!ID.test(id)) return undefined;
    const hex = id.replace(/-/g, '').toLowerCase();
    const known = this.#open.get(hex);
    if (known !== undefined) return known;
    if (!isConversationDir(join(this.#options.dataDir, hex))) return undefined;
    const { agentModule, serverModule, dataDir, conversationOptions } = this.#options;
    try {
      return this.#adopt(
        await agentModule.Conversation.resume(hex, { ...conversationOptions, persistenceDir: dataDir }),
      );
    } catch (error) {
      if (agentModule.AgentError.isInstance(error) && error.code === 'conversation_running') {
        throw new serverModule.McpToolCallError(
          'conversation_running',
          `Conversation '${id}' is being run by another process (${error.message})`,
          { conversation_id: id },
        );
      }
      throw error;
    }
  }

  /**
   * A page of the data directory's conversations, most recently modified first (ties by name). Each page lists the
   * directory afresh and goes on after `after`'s place in that order, so a conversation removed between pages skips
   * none of the others; one modified between pages moves to the front (already passed). Opens nothing: the status
   * is the live one of a conversation this process holds, else base_state.json's.
   */
  async page({ after, limit }: { after?: McpListPosition | undefined; limit: number }): Promise<McpConversationPage> {
    const { dataDir } = this.#options;
    let names: string[] = [];
    try {
      names = readdirSync(dataDir).filter((name) => isConversationDir(join(dataDir, name)));
    } catch {
      return { conversations: [] };
    }
    // A conversation deleted since the listing (`x rm`, another process) is left out, not a failed listing.
    const placed = names.flatMap((name) => {
      const modified = statSync(join(dataDir, name), { throwIfNoEntry: false })?.mtime;
      return modified === undefined ? [] : [{ at: modified.toISOString(), id: name }];
    });
    placed.sort(newestFirst);
    const start = after === undefined ? 0 : placed.findIndex((place) => newestFirst(place, after) > 0);
    const page = start < 0 ? [] : placed.slice(start, start + limit);
    const last = page.at(-1);
    const conversations = page.map(({ id: name }) => {
      const open = this.#open.get(name);
      return {
        conversation_id: open?.id ?? this.#options.agentModule.hyphenateConversationId(name),
        status: open?.conversation.state.execution_status ?? recordedStatus(join(dataDir, name)),
      };
    });
    return start >= 0 && start + limit < placed.length && last !== undefined
      ? { conversations, next: last }
      : { conversations };
  }

  /** Pauses the runs still going and closes every conversation (the client went away). */
  async close(): Promise<void> {
    this.#watch?.stop();
    this.#watch = undefined;
    this.#deletionWatch?.stop();
    this.#deletionWatch = undefined;
    this.#deletionListeners.clear();
    this.#listChanged.clear();
    const open = [...this.#open.values()];
    this.#open.clear();
    await Promise.allSettled(open.map((conversation) => conversation.close()));
  }

  #adopt(conversation: Conversation): LocalConversation {
    const hex = conversation.id.replace(/-/g, '');
    const local = new LocalConversation(conversation, this.#options, (listener) => this.#onDeleted(hex, listener));
    this.#open.set(hex, local);
    return local;
  }

  /**
   * Calls `listener` once when the conversation's directory leaves the data directory (`x rm`, another process, a
   * hand's `rm`), at once when it has already; returns what stops listening. One watch of the data directory serves
   * every listener, kept while there is one.
   */
  #onDeleted(hex: string, listener: () => void): () => void {
    if (!isConversationDir(join(this.#options.dataDir, hex))) {
      listener();
      return () => undefined;
    }
    const listeners = this.#deletionListeners.get(hex) ?? new Set();
    this.#deletionListeners.set(hex, listeners.add(listener));
    this.#deletionWatch ??= new DataDirWatch({
      dataDir: this.#options.dataDir,
      isConversation: isConversationDir,
      onChange: () => this.#tellDeleted(),
      warn: this.#options.warn,
    });
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#deletionListeners.get(hex) === listeners) this.#deletionListeners.delete(hex);
      this.#stopDeletionWatchWhenUnused();
    };
  }

  /** Tells the listeners of each conversation gone from the data directory, once; this process lets it go. */
  #tellDeleted(): void {
    for (const [hex, listeners] of [...this.#deletionListeners]) {
      if (isConversationDir(join(this.#options.dataDir, hex))) continue;
      this.#deletionListeners.delete(hex);
      this.#open.delete(hex);
      for (const listener of [...listeners]) listener();
    }
    this.#stopDeletionWatchWhenUnused();
  }

  #stopDeletionWatchWhenUnused(): void {
    if (this.#deletionListeners.size > 0) return;
    this.#deletionWatch?.stop();
    this.#deletionWatch = undefined;
  }
}

/** Negative when `a` comes before `b`: the most recently modified first, ties by name (the order of a page). */
function newestFirst(a: McpListPosition, b: McpListPosition): number {
  return b.at.localeCompare(a.at) || b.id.localeCompare(a.id);
}

/** The status base_state.json records (a listing opens nothing), `unknown` when it cannot be read. */
function recordedStatus(location: string): string {
  try {
    const base = JSON.parse(readFileSync(join(location, 'base_state.json'), 'utf8')) as { execution_status?: unknown };
    return typeof base.execution_status === 'string' ? base.execution_status : 'unknown';
  } catch {
    return 'unknown';
  }
}

class LocalConversation implements McpConversation {
  readonly conversation: Conversation;
  readonly #options: LocalMcpHostOptions;
  /** The run going on in this process; it settles with the refusal of a run another process holds, if that. */
  #run: Promise<Error | undefined> | undefined;

  readonly #onDeleted: (listener: () => void) => () => void;

  constructor(
    conversation: Conversation,
    options: LocalMcpHostOptions,
    onDeleted: (listener: () => void) => () => void,
  ) {
    this.conversation = conversation;
    this.#options = options;
    this.#onDeleted = onDeleted;
  }

  get id(): string {
    return this.conversation.id;
  }

  get isRunning(): boolean {
    return this.#run !== undefined;
  }

  async view() {
    const events: AnyEvent[] = [];
    for await (const event of this.conversation.events()) events.push(event);
    const pending = await this.conversation.pendingActions();
    return {
      conversation_id: this.conversation.id,
      status: this.conversation.state.execution_status,
      final_answer: await this.#options.agentModule.agentFinalResponse(events),
      pending_actions: pending.map((action) => ({
        id: action.id,
        tool_name: action.tool_name,
        tool_call_id: action.tool_call_id,
        arguments: action.action ?? null,
      })),
      event_count: events.length,
    };
  }

  async sendMessage(text: string): Promise<void> {
    await this.conversation.sendMessage(text);
  }

  async rejectPendingActions(reason: string): Promise<void> {
    await this.conversation.rejectPendingActions(reason);
  }

  async interrupt(): Promise<void> {
    await this.conversation.interrupt();
  }

  async state(): Promise<Record<string, unknown>> {
    const { state } = this.conversation;
    // The reference's ConversationState fields of base_state.json, less the agent, secrets and our own x_state.
    return {
      id: this.conversation.id,
      workspace: { working_dir: this.conversation.workspace, kind: 'LocalWorkspace' },
      max_iterations: state.max_iterations,
      stuck_detection: state.stuck_detection,
      execution_status: state.execution_status,
      confirmation_policy: state.confirmation_policy,
      invoked_skills: state.invoked_skills ?? [],
      blocked_actions: state.blocked_actions,
      blocked_messages: state.blocked_messages,
      ...(state.last_user_message_id === undefined ? {} : { last_user_message_id: state.last_user_message_id }),
      ...(state.leaf_event_id === undefined ? {} : { leaf_event_id: state.leaf_event_id }),
      head_is_empty: state.head_is_empty,
      stats: state.stats,
    };
  }

  async events(start: number, limit: number): Promise<{ events: AnyEvent[]; total: number }> {
    const { log } = this.conversation;
    const total = log.length;
    return { events: start >= total ? [] : await log.range(start, start + limit), total };
  }

  watch(listener: () => void, options?: McpWatchOptions): () => void {
    // Recorded events only (a streaming delta has no index).
    const unsubscribe = this.conversation.subscribe((_event, index) => {
      if (index !== undefined) listener();
    });
    const deleted = options?.onDeleted;
    const unDeleted = deleted === undefined ? () => undefined : this.#onDeleted(deleted);
    return () => {
      unDeleted();
      unsubscribe();
    };
  }

  async followRun(options: { signal: AbortSignal; onEvent: (event: AnyEvent, index: number) => void }): Promise<void> {
    const unsubscribe = this.conversation.subscribe((event, index) => {
      if (index !== undefined) options.onEvent(event, index);
    });
    try {
      this.#run ??= this.conversation
        .run()
        .then(
          () => undefined,
          (error: unknown) => {
            // Another process holds the run (its lease): a refusal for the caller, who would else read a view of a
            // run that is not this process's as if it had followed it.
            const { AgentError, ConversationRunError } = this.#options.agentModule;
            if (AgentError.isInstance(error) && error.code === 'conversation_running') return error as Error;
            // A failed run is recorded in the conversation (its error event, status `error`); anything else is not.
            if (!(ConversationRunError.isInstance(error) && error.code === 'conversation_run_failed')) {
              this.#options.warn(`run of ${this.conversation.id} failed: ${(error as Error).message}`);
            }
            return undefined;
          },
        )
        .finally(() => {
          this.#run = undefined;
        });
      const { signal } = options;
      if (signal.aborted) return;
      let stopWaiting: () => void = () => undefined;
      const left = new Promise<void>((resolve) => {
        stopWaiting = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      const refusal = await Promise.race([this.#run, left]);
      stopWaiting();
      if (refusal instanceof Error) {
        throw new this.#options.serverModule.McpToolCallError(
          'conversation_running',
          `Conversation '${this.conversation.id}' is being run by another process (${refusal.message})`,
          { conversation_id: this.conversation.id },
        );
      }
    } finally {
      unsubscribe();
    }
  }

  async close(): Promise<void> {
    if (this.#run !== undefined) {
      await this.conversation.pause().catch(() => undefined);
      await this.#run;
    }
    await this.conversation.close();
  }
}
