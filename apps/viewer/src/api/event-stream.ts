import { isPublishedOnly } from './event-kinds.js';
import { readSessionKey } from './session-key.js';
import { type EventJson, isEventJson } from './types.js';

export interface EventStreamHandlers {
  /** A persisted event, in log order; each one is delivered once per stream even across reconnects. */
  onEvent(event: EventJson): void;
  /** A published-only frame (full_state snapshot, streaming delta, server error). */
  onLive(event: EventJson): void;
  onStatus(status: 'connecting' | 'open' | 'closed'): void;
  /** The socket was closed for a bad key (4001): the page must ask for it again. */
  onUnauthorized(): void;
}

const FATAL_NOT_FOUND = 4004;
const AUTH_FAILED = 4001;

/**
 * The conversation's event WebSocket (§11.4) with resume: it starts after `afterEventId` (the newest
 * event the page already has) and, after a dropped connection, reconnects after the last persisted
 * event it delivered, so the page sees no gap and no duplicate. The key goes in the first frame (the
 * reference's auth frame), never in the URL.
 */
export class EventStream {
  #ws: WebSocket | undefined;
  #lastId: string | undefined;
  #closed = false;
  #retryMs = 250;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly conversationId: string,
    afterEventId: string | undefined,
    private readonly handlers: EventStreamHandlers,
  ) {
    this.#lastId = afterEventId;
    this.#connect();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#ws?.close(1000, 'page closed');
  }

  /** For tests and diagnostics: drops the connection as a network failure would. */
  drop(): void {
    this.#ws?.close(4999, 'dropped');
  }

  #connect(): void {
    if (this.#closed) return;
    const params = new URLSearchParams();
    if (this.#lastId === undefined) params.set('from_index', '0');
    else params.set('after_event_id', this.#lastId);
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${scheme}//${location.host}/sockets/events/${encodeURIComponent(this.conversationId)}?${params}`;
    this.handlers.onStatus('connecting');
    const ws = new WebSocket(url);
    this.#ws = ws;
    ws.onopen = () => {
      const key = readSessionKey();
      if (key !== undefined) ws.send(JSON.stringify({ type: 'auth', session_api_key: key }));
    };
    ws.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      let value: unknown;
      try {
        value = JSON.parse(message.data);
      } catch {
        return;
      }
      if (!isEventJson(value)) return;
      this.#retryMs = 250;
      this.handlers.onStatus('open');
      if (isPublishedOnly(value)) {
        this.handlers.onLive(value);
        return;
      }
      this.#lastId = value.id;
      this.handlers.onEvent(value);
    };
    ws.onclose = (close) => {
      if (this.#ws !== ws) return;
      this.handlers.onStatus('closed');
      if (this.#closed) return;
      if (close.code === AUTH_FAILED) {
        this.handlers.onUnauthorized();
        return;
      }
      if (close.code === FATAL_NOT_FOUND) return;
      this.#timer = setTimeout(() => this.#connect(), this.#retryMs);
      this.#retryMs = Math.min(this.#retryMs * 2, 8_000);
    };
  }
}
