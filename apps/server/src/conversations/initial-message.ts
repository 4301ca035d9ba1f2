import type { Message } from '@x/events';
import type { StartConversationRequest } from '../api/request-schemas.js';

/** A start request's `initial_message` as the user message it sends (x also takes its content as a string). */
export function initialMessage(request: NonNullable<StartConversationRequest['initial_message']>): Message {
  const { content } = request;
  return {
    role: 'user',
    content: typeof content === 'string' ? [{ cache_prompt: false, type: 'text', text: content }] : content,
    thinking_blocks: [],
  };
}
