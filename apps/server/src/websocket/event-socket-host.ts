import type { AnyEvent, Message } from '@x/events';
import type { EventLogLike } from '@x/store';
import type { FastifyBaseLogger } from 'fastify';

/**
 * What the WebSocket layer needs from the server: the contract between the REST side (which owns
 * conversations, `ConversationManager`) and `attachEventSockets`. See docs/design.md, "@x/server".
 */
export interface EventSocketHost {
  /** Session API keys; empty = no auth. */
  readonly apiKeys: readonly string[];
  /** The conversation to stream, loading it lazily; undefined when unknown. */
  open(conversationId: string): Promise<SocketConversation | undefined>;
  logger: FastifyBaseLogger;
}

/** One conversation as a socket streams it. */
export interface SocketConversation {
  readonly id: string;
  /** The durable log: replay and live events come from `log.subscribe(fromIndex)`, gap-free. */
  readonly log: EventLogLike;
  /** The full-state snapshot (ConversationInfo JSON) sent first as a `full_state` update. */
  fullState(): Record<string, unknown>;
  /** Events that are published but never persisted: StreamingDeltaEvents and full_state snapshots. */
  onPublished(listener: (event: AnyEvent) => void): () => void;
  /** A client frame: send the message and start a run when none is active. */
  sendUserMessage(message: Message): Promise<void>;
  /** Calls `listener` once when the conversation is deleted (its sockets are closed with 4004); returns an unsubscribe. */
  onDeleted?(listener: () => void): () => void;
}
