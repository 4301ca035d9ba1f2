import { type AnyEvent, ChatImportError, eventsToMessages, type Message, View } from '@x/events';
import { fromLangChainMessages } from './from-langchain-messages.js';
import { type LangChainMessage, type LangChainStoredMessage, langChainMessageType } from './langchain-message.js';
import { loadLangChainMessages } from './load-langchain.js';
import { toLangChainMessages } from './to-langchain-messages.js';

/**
 * The LangChain messages of a conversation's events: what the model is sent for them (the View, so forgotten events
 * are left out and condensation summaries put in, then `eventsToMessages`), as `toLangChainMessages` writes them.
 * Pass the active branch (`conversation.activeBranch()`, or `activeBranch` of @x/events) for a branched log. A
 * message's `sender` (what `fromLangChainMessages` makes of a message's `name`) is its LangChain message's `name`.
 */
export async function eventsToLangChainMessages(events: readonly AnyEvent[]): Promise<LangChainMessage[]> {
  const viewEvents = View.fromEvents([...events]).events;
  const named = viewEvents.map(withSenderAsName);
  return withFailedToolResults(await toLangChainMessages(eventsToMessages(named)), viewEvents);
}

/**
 * A MessageEvent with a `sender` as one whose message carries it as `name` (the LLM message itself has none: the
 * reference sends no sender to the model), for rendering only; every other event as it is.
 */
function withSenderAsName(event: AnyEvent): AnyEvent {
  if (event.kind !== 'MessageEvent' || event.sender === undefined || event.llm_message.name !== undefined) return event;
  return { ...event, llm_message: { ...event.llm_message, name: event.sender } };
}

/**
 * Marks the `ToolMessage` of each failed tool result `status: 'error'` (what LangGraph's ToolNode writes, and what
 * ChatAnthropic sends as the tool_result's `is_error`; `fromLangChainMessages` reads it back as `is_error`): an
 * observation with `is_error`, or an AgentErrorEvent answering the call. LLM messages carry no such flag, so it is
 * read from the events, in order per call id (a later turn may reuse an id).
 */
function withFailedToolResults(messages: LangChainMessage[], events: readonly AnyEvent[]): LangChainMessage[] {
  const failed = new Map<string, boolean[]>();
  for (const event of events) {
    if (
      event.kind !== 'ObservationEvent' &&
      event.kind !== 'AgentErrorEvent' &&
      event.kind !== 'UserRejectObservation'
    ) {
      continue;
    }
    const queue = failed.get(event.tool_call_id) ?? [];
    queue.push(
      event.kind === 'AgentErrorEvent' || (event.kind === 'ObservationEvent' && event.observation.is_error === true),
    );
    failed.set(event.tool_call_id, queue);
  }
  for (const message of messages) {
    if (message.tool_call_id === undefined || langChainMessageType(message) !== 'tool') continue;
    if (failed.get(message.tool_call_id)?.shift() === true) (message as { status?: string }).status = 'error';
  }
  return messages;
}

/** `toLangChainMessages`, then LangChain's stored form (`mapChatMessagesToStoredMessages`): plain JSON to save. */
export async function toLangChainStoredMessages(messages: readonly Message[]): Promise<LangChainStoredMessage[]> {
  const { mapChatMessagesToStoredMessages } = await loadLangChainMessages();
  const langChain = await toLangChainMessages(messages);
  const stored = mapChatMessagesToStoredMessages(langChain as Parameters<typeof mapChatMessagesToStoredMessages>[0]);
  return stored as unknown as LangChainStoredMessage[];
}

/**
 * Events from LangChain's stored form (`mapStoredMessagesToChatMessages`, then `fromLangChainMessages`). A record
 * LangChain cannot read (not an object, a type it does not know) is a `ChatImportError` naming its index.
 */
export async function fromLangChainStoredMessages(stored: readonly LangChainStoredMessage[]): Promise<AnyEvent[]> {
  const { mapStoredMessagesToChatMessages } = await loadLangChainMessages();
  if (!Array.isArray(stored)) {
    throw new ChatImportError({ index: 0, path: '(messages)', message: 'expected an array of stored messages' });
  }
  // One record at a time, so what LangChain throws on (a plain Error, a TypeError) names the record it came from.
  const messages = stored.map((record: unknown, index) => {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      throw new ChatImportError({ index, path: '(message)', message: 'expected a stored message (an object)' });
    }
    if (typeof (record as { type?: unknown }).type !== 'string') {
      throw new ChatImportError({ index, path: 'type', message: 'expected a string' });
    }
    try {
      return mapStoredMessagesToChatMessages([record] as Parameters<typeof mapStoredMessagesToChatMessages>[0])[0];
    } catch (error) {
      throw new ChatImportError({
        index,
        path: 'type',
        message: `LangChain cannot read this stored message: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  });
  return fromLangChainMessages(messages as unknown as LangChainMessage[]);
}
