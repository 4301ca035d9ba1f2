import { ClientError } from '../errors.js';

/** The server does not know the conversation (HTTP 404, or WebSocket close 4004). */
export class RemoteConversationNotFoundError extends ClientError {
  readonly conversationId: string;
  readonly serverUrl: string;

  constructor(init: { conversationId: string; serverUrl: string; cause?: unknown }) {
    super('remote_conversation_not_found', `Conversation ${init.conversationId} not found on ${init.serverUrl}`, {
      cause: init.cause,
    });
    this.conversationId = init.conversationId;
    this.serverUrl = init.serverUrl;
  }
}
