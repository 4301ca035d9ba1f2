import { type AnyEvent, eventsToMessages, type Message, View } from '@x/events';
import { fromLangChainMessages } from './from-langchain-messages.js';
import type { LangChainMessage, LangChainStoredMessage } from './langchain-message.js';
import { loadLangChainMessages } from './load-langchain.js';
import { toLangChainMessages } from './to-langchain-messages.js';

/**
 * The LangChain messages of a conversation's events: what the model is sent for them (the View, so forgotten events
 * are left out and condensation summaries put in, then `eventsToMessages`), as `toLangChainMessages` writes them.
 * Pass the active branch (`conversation.activeBranch()`, or `activeBranch` of @x/events) for a branched log.
 */
export async function eventsToLangChainMessages(events: readonly AnyEvent[]): Promise<LangChainMessage[]> {
  return toLangChainMessages(eventsToMessages(View.fromEvents([...events]).events));
}

/** `toLangChainMessages`, then LangChain's stored form (`mapChatMessagesToStoredMessages`): plain JSON to save. */
export async function toLangChainStoredMessages(messages: readonly Message[]): Promise<LangChainStoredMessage[]> {
  const { mapChatMessagesToStoredMessages } = await loadLangChainMessages();
  const langChain = await toLangChainMessages(messages);
  const stored = mapChatMessagesToStoredMessages(langChain as Parameters<typeof mapChatMessagesToStoredMessages>[0]);
  return stored as unknown as LangChainStoredMessage[];
}

/** Events from LangChain's stored form (`mapStoredMessagesToChatMessages`, then `fromLangChainMessages`). */
export async function fromLangChainStoredMessages(stored: readonly LangChainStoredMessage[]): Promise<AnyEvent[]> {
  const { mapStoredMessagesToChatMessages } = await loadLangChainMessages();
  const messages = mapStoredMessagesToChatMessages(
    stored as unknown as Parameters<typeof mapStoredMessagesToChatMessages>[0],
  );
  return fromLangChainMessages(messages as unknown as LangChainMessage[]);
}
