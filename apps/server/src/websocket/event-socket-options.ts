import type { IncomingMessage } from 'node:http';

/** Tuning of `attachEventSockets`; every field has a default suited to production. */
export interface EventSocketOptions {
  /** How long an accepted socket may take to send its `{"type":"auth"}` frame, in ms. Default 10,000. */
  authTimeoutMs?: number;
  /** Subscribers allowed per conversation; one more is closed with 1013. Default 50. */
  maxSubscribersPerConversation?: number;
  /**
   * Bytes a socket may have queued in the process (`ws.bufferedAmount`) before the server stops
   * pulling events for it and drops its published-only events. Default 1 MiB.
   */
  bufferLimitBytes?: number;
  /** A socket whose queue goes past this is closed with 4008 at once. Default 16 MiB. */
  bufferHardCapBytes?: number;
  /** A socket that stays over `bufferLimitBytes` this long is closed with 4008. Default 10,000 ms. */
  slowClientGraceMs?: number;
  /** Ping interval; a peer that has not answered the previous ping is terminated. Default 30,000 ms. 0 = off. */
  heartbeatIntervalMs?: number;
  /** After sending a close frame, how long to wait for the peer before dropping the TCP connection. Default 5,000 ms. */
  closeTimeoutMs?: number;
  /** Published-only events held per socket while it catches up with the log; more are dropped. Default 1,000. */
  maxPendingPublished?: number;
  /**
   * Runs first on every upgrade request (any path): a refusal is answered with its status and
   * `{"detail": ...}` and the socket closed. The server passes its Host/Origin check here.
   */
  checkRequest?: (request: IncomingMessage) => { status: number; detail: string } | undefined;
}

export type ResolvedEventSocketOptions = Required<Omit<EventSocketOptions, 'checkRequest'>>;

export function resolveEventSocketOptions(options: EventSocketOptions = {}): ResolvedEventSocketOptions {
  return {
    authTimeoutMs: options.authTimeoutMs ?? 10_000,
    maxSubscribersPerConversation: options.maxSubscribersPerConversation ?? 50,
    bufferLimitBytes: options.bufferLimitBytes ?? 1024 * 1024,
    bufferHardCapBytes: options.bufferHardCapBytes ?? 16 * 1024 * 1024,
    slowClientGraceMs: options.slowClientGraceMs ?? 10_000,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 30_000,
    closeTimeoutMs: options.closeTimeoutMs ?? 5_000,
    maxPendingPublished: options.maxPendingPublished ?? 1_000,
  };
}
