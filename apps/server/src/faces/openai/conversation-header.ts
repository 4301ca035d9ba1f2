import type { FastifyRequest } from 'fastify';
import { conversationIdSchema } from '../../api/request-schemas.js';
import { invalidRequest } from './openai-error.js';

/** The request and response header naming the conversation behind an answer (the reference's name). */
export const CONVERSATION_HEADER = 'X-OpenHands-ServerConversation-ID';

/** The conversation a request names in its header, or undefined when it names none; a 400 for a malformed id. */
export function conversationIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers[CONVERSATION_HEADER.toLowerCase()];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === '') return undefined;
  const parsed = conversationIdSchema.safeParse(value);
  if (!parsed.success)
    throw invalidRequest(`${CONVERSATION_HEADER}: ${parsed.error.issues[0]?.message}`, CONVERSATION_HEADER);
  return parsed.data;
}
