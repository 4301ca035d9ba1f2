/**
 * WebSocket close codes of `/sockets/events/{conversation_id}`. 4001, 4004 and 1013 are the
 * reference's; 4008 and 1008 are ours (the reference has no slow-client policy and ignores bad query
 * parameters).
 */
export const CloseCode = {
  /** The server is shutting down (`close()` of `attachEventSockets`). */
  goingAway: 1001,
  /** A query parameter (`from_index`, `after_event_id`, `after_timestamp`) is invalid or names no event. */
  invalidRequest: 1008,
  /** More subscribers than allowed on this conversation. */
  tryAgainLater: 1013,
  /** Missing or wrong session API key. Fatal for clients. */
  authenticationFailed: 4001,
  /** The conversation does not exist. Fatal for clients. */
  conversationNotFound: 4004,
  /** The client did not read its frames fast enough (see `slowClientGraceMs`). Clients may resume. */
  clientTooSlow: 4008,
} as const;

export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];
