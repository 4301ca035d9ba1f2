import type { Message } from '@x/events';
import type { SendMessageOptions } from './conversation-options.js';
import type { ConversationParts, PartsOwner } from './conversation-parts.js';
import { InvalidMessageError } from './errors/invalid-message-error.js';

/** Adds a user message (`Conversation.sendMessage`). A finished or stuck conversation becomes idle (reference §8.2). */
export async function sendConversationMessage(
  owner: PartsOwner,
  parts: ConversationParts,
  message: string | Message,
  options: SendMessageOptions,
): Promise<void> {
  parts.lifecycle.assertOpen();
  const llmMessage: Message =
    typeof message === 'string'
      ? { role: 'user', content: [{ cache_prompt: false, type: 'text', text: message }], thinking_blocks: [] }
      : message;
  // The reference asserts this: another role would be recorded as the user's and sent to the model as that role.
  if (llmMessage.role !== 'user') {
    throw new InvalidMessageError(owner.id, `only user messages can be sent (role was '${llmMessage.role}')`);
  }
  const { extensions } = parts;
  await extensions.startSession();
  await extensions.emitWithHooks(extensions.userMessage(llmMessage, options));
  if (owner.state.execution_status === 'finished' || owner.state.execution_status === 'stuck') {
    await parts.events.setStatus('idle');
  }
  if (!owner.isRunning) await owner.checkpoint();
}
