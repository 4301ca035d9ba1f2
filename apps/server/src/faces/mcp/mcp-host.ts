import type { AnyEvent } from '@x/events';

/** One conversation as a listing shows it. */
export interface McpConversationSummary {
  conversation_id: string;
  status: string;
  title?: string | undefined;
}

/**
 * Where a listing page ended: the time the host orders its last conversation by, and that conversation's id (as the
 * host keys it). The face turns it into the page's cursor and back.
 */
export interface McpListPosition {
  /** ISO 8601 (empty for a conversation recorded without a time). */
  at: string;
  /** Letters, digits, `_` and `-`, at most 64. */
  id: string;
}

/** One page of the host's listing. */
export interface McpConversationPage {
  conversations: McpConversationSummary[];
  /** Where this page ended, when more conversations follow. */
  next?: McpListPosition | undefined;
}

/** An action the agent wants to run, waiting for a person's confirmation. */
export interface McpPendingAction {
  /** The ActionEvent's id. */
  id: string;
  tool_name: string;
  tool_call_id: string;
  /** The arguments the agent gave the tool (e.g. the terminal command). */
  arguments: unknown;
}

/** What `get_conversation` (and every tool that ran the agent) answers. */
export interface McpConversationView {
  conversation_id: string;
  /** The conversation's `execution_status` (`idle`, `running`, `finished`, `waiting_for_confirmation`, ...). */
  status: string;
  /** The agent's final answer: its last `finish` message, or its last message; `''` when it gave none yet. */
  final_answer: string;
  pending_actions: McpPendingAction[];
  /** How many events the log holds. */
  event_count: number;
}

/** One conversation, as the MCP tools drive it. */
export interface McpConversation {
  readonly id: string;
  readonly isRunning: boolean;
  view(): Promise<McpConversationView>;
  /** Records a user message; starts no run. */
  sendMessage(text: string): Promise<void>;
  /** Rejects every pending action with `reason` (the next run tells the model). */
  rejectPendingActions(reason: string): Promise<void>;
  /**
   * Stops the run in progress now (the model call and running tools are aborted, an InterruptEvent is recorded,
   * status `paused`); with none running, pauses. The next `run` goes on from there.
   */
  interrupt(): Promise<void>;
  /**
   * Starts a run unless one is going, and calls `onEvent` for every event it appends (with its log index) until
   * the run is over. `signal` (the MCP request's cancellation, a client gone) ends the wait only: the run goes on
   * (`interrupt` stops it).
   */
  followRun(options: { signal: AbortSignal; onEvent: (event: AnyEvent, index: number) => void }): Promise<void>;
  /**
   * The conversation's state in OpenHands JSON: the server's ConversationInfo (as `GET /api/conversations/{id}`);
   * for `x mcp`, the reference's ConversationState fields (those of base_state.json, less agent and secrets).
   */
  state(): Promise<Record<string, unknown>>;
  /** The log's events `[start, start + limit)` and how many events the log holds. */
  events(start: number, limit: number): Promise<{ events: AnyEvent[]; total: number }>;
  /**
   * Calls `listener` whenever the log grows (a resource subscription), and `onDeleted` once when the conversation is
   * deleted (at once when it already is); returns the function that stops both. While watched, the conversation stays
   * open.
   */
  watch(listener: () => void, options?: McpWatchOptions): () => void;
}

export interface McpWatchOptions {
  /** Called once when the watched conversation is deleted: the subscription notifies its client and ends. */
  onDeleted?: () => void;
}

/**
 * Where the MCP face finds and makes conversations: the server's ConversationManager (`x serve`), or the CLI's
 * data directory (`x mcp`). The tools know nothing else about either.
 */
export interface McpConversationHost {
  /**
   * Whether `start_conversation` takes a `conversation` create body (the server's `StartConversationRequest`);
   * a host that does not runs every conversation on its own configured agent.
   */
  readonly acceptsCreateBody: boolean;
  /** Makes a conversation from `createBody` or else the host's default agent; throws McpToolCallError when neither. */
  create(createBody: Record<string, unknown> | undefined): Promise<McpConversation>;
  /** The conversation `id` names, or undefined when there is none (also for ids of no valid form). */
  find(id: string): Promise<McpConversation | undefined>;
  /**
   * One page of the conversations, newest first, of at most `limit`: the first, or the one after `after` (the `next`
   * of a page before). It follows `after`'s place in the order, found again even when its conversation is gone, so a
   * conversation deleted or created between pages makes the next page skip or repeat none of the others. A page costs
   * at most its own conversations, never the whole list: a host opens no conversation for it where it can read status
   * and title from what it stores beside the log.
   */
  page(request: { after?: McpListPosition | undefined; limit: number }): Promise<McpConversationPage>;
  /**
   * Calls `listener` whenever a conversation is added or removed (what `page` answers changes by more than a status
   * or title); returns the function that stops it. A host that cannot tell leaves it out, and the face declares no
   * `resources.listChanged`.
   */
  onListChanged?(listener: () => void): () => void;
}
