import { type AnyEvent, createEvent } from '@x/events';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket } from 'ws';
import { parseClientFrame } from './client-frame.js';
import { CloseCode } from './close-codes.js';
import { closeSocket } from './close-socket.js';
import type { SocketConversation } from './event-socket-host.js';
import type { ResolvedEventSocketOptions } from './event-socket-options.js';
import { serializedFrame } from './serialized-frame.js';

/** A published-only frame waiting until the socket has sent the log up to `after` (the log's length when it was published). */
interface PendingFrame {
  readonly after: number;
  readonly frame: string;
}

/**
 * One subscribed socket. Its own pull loop reads the durable log from the start index and sends one
 * event at a time, pulling the next only while the socket's queue (`ws.bufferedAmount`) is under the
 * limit, so a slow reader costs the process at most about `bufferLimitBytes` and never holds up the
 * agent or other sockets. Published-only events (deltas, full_state snapshots) are sent once the
 * socket has caught up with the log as it was when they were published, so a snapshot never arrives
 * before the events it reflects; for a socket over the limit they are dropped (they are not durable:
 * a reconnecting client never sees them either). A socket over the limit for `slowClientGraceMs`, or
 * past `bufferHardCapBytes`, is closed with 4008.
 */
export class EventSocketSession {
  readonly #ws: WebSocket;
  readonly #conversation: SocketConversation;
  readonly #options: ResolvedEventSocketOptions;
  readonly #logger: FastifyBaseLogger;
  readonly #abort = new AbortController();
  /** Index of the next persisted event to send: every event below it has been handed to the socket. */
  #sent = 0;
  #pending: PendingFrame[] = [];
  #roomWaiter: (() => void) | undefined;
  #overLimitTimer: NodeJS.Timeout | undefined;
  #unsubscribePublished: (() => void) | undefined;
  #frames: Promise<void> = Promise.resolve();
  #stopped = false;
  #dropped = 0;

  constructor(init: {
    ws: WebSocket;
    conversation: SocketConversation;
    options: ResolvedEventSocketOptions;
    logger: FastifyBaseLogger;
  }) {
    this.#ws = init.ws;
    this.#conversation = init.conversation;
    this.#options = init.options;
    this.#logger = init.logger;
  }

  /** Sends the full_state snapshot, then the log from `fromIndex` on, then live events. */
  start(fromIndex: number): void {
    this.#sent = fromIndex;
    const snapshot = createEvent('ConversationStateUpdateEvent', {
      key: 'full_state',
      value: this.#conversation.fullState(),
    });
    this.#send(serializedFrame(snapshot));
    this.#unsubscribePublished = this.#conversation.onPublished((event) => this.#onPublished(event));
    void this.#pump(fromIndex);
  }

  /** A client frame: a Message is sent to the conversation; failures go back as a ServerErrorEvent on this socket. */
  receive(text: string): void {
    this.#frames = this.#frames.then(async () => {
      if (this.#stopped) return;
      try {
        const frame = parseClientFrame(text);
        if (frame.kind === 'message') await this.#conversation.sendUserMessage(frame.message);
      } catch (error) {
        this.#sendError(error);
      }
    });
  }

  /** Ends the pull loop and forgets published events; the socket itself is closed by the caller. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#abort.abort();
    this.#unsubscribePublished?.();
    this.#pending = [];
    clearTimeout(this.#overLimitTimer);
    this.#wake();
  }

  async #pump(fromIndex: number): Promise<void> {
    try {
      for await (const { index, event } of this.#conversation.log.subscribe(fromIndex, {
        signal: this.#abort.signal,
      })) {
        if (this.#stopped) return;
        this.#send(serializedFrame(event));
        this.#sent = index + 1;
        this.#flushPending();
        if (this.#ws.bufferedAmount >= this.#options.bufferLimitBytes) await this.#waitForRoom();
      }
    } catch (error) {
      if (this.#stopped) return;
      this.#logger.error({ err: error, conversationId: this.#conversation.id }, 'event socket: reading the log failed');
      this.stop();
      closeSocket(this.#ws, 1011, 'Reading the event log failed', this.#options.closeTimeoutMs);
    }
  }

  #onPublished(event: AnyEvent): void {
    if (this.#stopped) return;
    const frame = serializedFrame(event);
    const after = this.#conversation.log.length;
    if (this.#pending.length === 0 && this.#sent >= after) {
      this.#sendPublished(frame);
    } else if (this.#pending.length < this.#options.maxPendingPublished) {
      this.#pending.push({ after, frame });
    } else {
      this.#dropped += 1;
    }
  }

  #flushPending(): void {
    while (this.#pending.length > 0 && this.#pending[0]!.after <= this.#sent) {
      this.#sendPublished(this.#pending.shift()!.frame);
    }
  }

  #sendPublished(frame: string): void {
    if (this.#ws.bufferedAmount >= this.#options.bufferLimitBytes) {
      this.#dropped += 1;
      this.#checkPressure();
      return;
    }
    this.#send(frame);
  }

  #send(frame: string): void {
    if (this.#stopped || this.#ws.readyState !== WebSocket.OPEN) return;
    this.#ws.send(frame, () => this.#onFlushed());
    this.#checkPressure();
  }

  #sendError(error: unknown): void {
    const code = error instanceof Error ? error.name || error.constructor.name : 'Error';
    const detail = error instanceof Error ? error.message : String(error);
    this.#send(serializedFrame(createEvent('ServerErrorEvent', { source: 'environment', code, detail })));
  }

  /** Starts the grace timer when the queue is over the limit; closes at once past the hard cap. */
  #checkPressure(): void {
    const buffered = this.#ws.bufferedAmount;
    if (buffered > this.#options.bufferHardCapBytes) {
      this.#closeTooSlow(`${buffered} bytes queued, over the hard cap`);
    } else if (buffered >= this.#options.bufferLimitBytes && this.#overLimitTimer === undefined) {
      this.#overLimitTimer = setTimeout(() => {
        this.#overLimitTimer = undefined;
        if (this.#ws.bufferedAmount >= this.#options.bufferLimitBytes) {
          this.#closeTooSlow(
            `over ${this.#options.bufferLimitBytes} bytes queued for ${this.#options.slowClientGraceMs} ms`,
          );
        }
      }, this.#options.slowClientGraceMs);
    }
  }

  #onFlushed(): void {
    if (this.#ws.bufferedAmount < this.#options.bufferLimitBytes) {
      clearTimeout(this.#overLimitTimer);
      this.#overLimitTimer = undefined;
      this.#wake();
    }
  }

  #waitForRoom(): Promise<void> {
    return new Promise((resolve) => {
      this.#roomWaiter = resolve;
      // A flush may have happened between the check and now.
      if (this.#stopped || this.#ws.bufferedAmount < this.#options.bufferLimitBytes) this.#wake();
    });
  }

  #wake(): void {
    const waiter = this.#roomWaiter;
    this.#roomWaiter = undefined;
    waiter?.();
  }

  #closeTooSlow(why: string): void {
    if (this.#stopped) return;
    this.#logger.warn(
      { conversationId: this.#conversation.id, sentUpTo: this.#sent, droppedPublished: this.#dropped },
      `event socket closed with ${CloseCode.clientTooSlow}: client too slow (${why})`,
    );
    this.stop();
    closeSocket(this.#ws, CloseCode.clientTooSlow, 'Client too slow', this.#options.closeTimeoutMs);
  }
}
