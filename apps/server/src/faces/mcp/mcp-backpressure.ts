import type { ServerResponse } from 'node:http';

/** How much a session may send towards a stream its client does not read before that stream is dropped. */
export const DEFAULT_MAX_BLOCKED_BYTES = 1024 * 1024;

/**
 * Back-pressure for the open HTTP responses (SSE streams) of one MCP session. The SDK's transport queues every
 * message it sends in memory without looking at whether the client reads; once a response's socket stopped
 * taking data (`writableNeedDrain`), whatever the session sends after piles up there. Past `maxBlockedBytes`
 * the response is destroyed: its queue goes with it, the message stays in the session's replay buffer, and a
 * client that reads again reconnects with `Last-Event-ID` and gets it. The count is of everything the session
 * sends (not only what goes to that stream): an upper bound, so a stalled stream is dropped early rather than late.
 */
export class ResponseBackpressure {
  readonly #maxBlockedBytes: number;
  readonly #blocked = new Map<ServerResponse, number>();

  constructor(maxBlockedBytes = DEFAULT_MAX_BLOCKED_BYTES) {
    this.#maxBlockedBytes = maxBlockedBytes;
  }

  /** How many responses are watched (open). */
  get size(): number {
    return this.#blocked.size;
  }

  /** Watches `response` until it closes. */
  track(response: ServerResponse): void {
    if (response.destroyed || this.#blocked.has(response)) return;
    this.#blocked.set(response, 0);
    const drained = (): void => {
      if (this.#blocked.has(response)) this.#blocked.set(response, 0);
    };
    response.on('drain', drained);
    response.once('close', () => {
      response.off('drain', drained);
      this.#blocked.delete(response);
    });
  }

  /** The session sends `bytes` more: counted against every response that is not taking data. */
  queued(bytes: number): void {
    for (const [response, blocked] of this.#blocked) {
      if (!response.writableNeedDrain) continue;
      const total = blocked + bytes;
      if (total <= this.#maxBlockedBytes) {
        this.#blocked.set(response, total);
        continue;
      }
      this.#blocked.delete(response);
      response.destroy();
    }
  }
}
