import type { Message } from '@x/events';
import type { SendMessageOptions } from './conversation-options.js';
import type { ConversationParts, PartsOwner } from './conversation-parts.js';
import { InvalidMessageError } from './errors/invalid-message-error.js';
import { rejectLogGap } from './log-gap.js';

/** Adds a user message (`Conversation.sendMessage`). A finished or stuck conversation becomes idle (reference §8.2). */
export async function sendConversationMessage(
  owner: PartsOwner,
  parts: ConversationParts,
  message: string | Message,
  options: SendMessageOptions,
): Promise<void> {
  parts.lifecycle.assertOpen();
  // Before the message's hooks run: a log ending at a gap records nothing.
  rejectLogGap(owner.id, owner.log);
  const llmMessage: Message =
    typeof message === 'string'
      ? { role: 'user', content: [{ cache_prompt: false, type: 'text', text: message }], thinking_blocks: [] }
      : message;
  // The reference asserts this: another role would be recorded as the user's and sent to the model as that role.
  if (llmMessage.role !== 'user') {
    throw new InvalidMessageError(owner.id, `only user messages can be sent (role was '${llmMessage.role}')`);
  }
  if (options.id !== undefined) checkMessageId(owner, options.id);
  const { extensions } = parts;
  await extensions.startSession();
  await extensions.emitWithHooks(extensions.userMessage(llmMessage, options));
  if (owner.state.execution_status === 'finished' || owner.state.execution_status === 'stuck') {
    await parts.events.setStatus('idle');
  }
  if (!owner.isRunning) await owner.checkpoint();
}

const MESSAGE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Whether `value` may be a message's own id (`SendMessageOptions.id`): 1-128 letters, digits, `.`, `_` or `-`,
 * starting with a letter or digit, since it names the event's file (a UUID always is).
 */
export function isMessageId(value: unknown): value is string {
  return typeof value === 'string' && MESSAGE_ID.test(value);
}

/** A caller's own id names the event's file and must be new to the log: checked before any hook runs. */
function checkMessageId(owner: PartsOwner, id: unknown): void {
  const conversationId = owner.id;
  if (!isMessageId(id)) {
    throw new InvalidMessageError(
      conversationId,
      `its id ${JSON.stringify(id)} is not 1-128 letters, digits, '.', '_' or '-' starting with a letter or digit`,
    );
  }
  if (owner.log.indexOf(id) !== -1) {
    throw new InvalidMessageError(
      conversationId,
      `an event with id '${id}' is already in its log (a message is sent once)`,
    );
  }
}
