import type { McpConversation, McpConversationHost } from './mcp-host.js';
import { McpResourceError } from './mcp-resource-error.js';
import { resourceConversation } from './mcp-resources.js';

/** How many resources one MCP session may watch at once: each holds its conversation open. */
export const MAX_SUBSCRIPTIONS = 64;

/**
 * The resource subscriptions of one MCP session (`resources/subscribe`): `notify(uri)` sends
 * `notifications/resources/updated` when the conversation's log grows. Appends close together give one
 * notification (the client reads the resource anyway). A conversation deleted notifies each of its resources once
 * and ends their subscriptions. `close` (the session ended) stops every watch.
 */
export class McpSubscriptions {
  readonly #host: McpConversationHost;
  readonly #notify: (uri: string) => void;
  readonly #max: number;
  readonly #watches = new Map<string, () => void>();
  readonly #pending = new Set<string>();
  /**
   * Subscribes still finding their conversation, by URI. The SDK runs a session's requests concurrently, so an
   * unsubscribe the client sent after a subscribe can be handled while that subscribe still waits: it cancels them.
   */
  readonly #finding = new Map<string, Set<{ cancelled: boolean }>>();
  #closed = false;

  constructor(host: McpConversationHost, notify: (uri: string) => void, max = MAX_SUBSCRIPTIONS) {
    this.#host = host;
    this.#notify = notify;
    this.#max = max;
  }

  async subscribe(uri: string): Promise<void> {
    const attempt = { cancelled: false };
    const finding = this.#finding.get(uri) ?? new Set();
    this.#finding.set(uri, finding.add(attempt));
    let conversation: McpConversation;
    try {
      ({ conversation } = await resourceConversation(this.#host, uri));
    } finally {
      finding.delete(attempt);
      if (finding.size === 0) this.#finding.delete(uri);
    }
    if (this.#closed || attempt.cancelled || this.#watches.has(uri)) return;
    if (this.#watches.size >= this.#max) {
      throw new McpResourceError(
        'too_many_subscriptions',
        `resources/subscribe: this session watches ${this.#max} resources already; unsubscribe one first`,
        { uri, max: this.#max },
      );
    }
    let stop: (() => void) | undefined;
    let deleted = false;
    stop = conversation.watch(() => this.#changed(uri), {
      onDeleted: () => {
        // Called at once when the conversation is deleted already, before `watch` returned.
        deleted = true;
        if (stop !== undefined) this.#deleted(uri, stop);
      },
    });
    if (deleted) this.#deleted(uri, stop);
    else this.#watches.set(uri, stop);
  }

  unsubscribe(uri: string): void {
    for (const attempt of this.#finding.get(uri) ?? []) attempt.cancelled = true;
    this.#watches.get(uri)?.();
    this.#watches.delete(uri);
    this.#pending.delete(uri);
  }

  close(): void {
    this.#closed = true;
    for (const uri of [...this.#watches.keys()]) this.unsubscribe(uri);
  }

  /**
   * The watched conversation was deleted: the subscription ends (`stop` is its watch) and the client is told at once
   * that the resource changed, so it reads it again and learns it is gone.
   */
  #deleted(uri: string, stop: () => void): void {
    if (this.#watches.get(uri) === stop) this.#watches.delete(uri);
    this.#pending.delete(uri);
    stop();
    this.#notify(uri);
  }

  #changed(uri: string): void {
    if (this.#pending.has(uri)) return;
    this.#pending.add(uri);
    setImmediate(() => {
      if (!this.#pending.delete(uri) || !this.#watches.has(uri)) return;
      this.#notify(uri);
    });
  }
}
