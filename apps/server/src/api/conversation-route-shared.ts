import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import type { ManagedConversation } from '../conversations/managed-conversation.js';
import type { ConversationInfoJson } from './response-schemas.js';

/** The answer of the routes that only say they worked. */
export const SUCCESS = { success: true } as const;

/** The OpenAPI tags of the conversation routes. */
export const CONVERSATION_TAGS = ['conversations'];

/** The conversation's ConversationInfo, opening it when needed. */
export async function conversationInfoJson(conversation: ManagedConversation): Promise<ConversationInfoJson> {
  await conversation.open();
  // The shape is checked against conversationInfoSchema when the response is serialized.
  return conversation.fullState() as ConversationInfoJson;
}

/** The reference answers 400, not 404, for an unknown conversation on some routes. */
export function notFound400(id: string): InvalidRequestError {
  return new InvalidRequestError(`Conversation not found: ${id}`, { statusCode: 400 });
}
