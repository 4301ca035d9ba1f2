import {
  type AnyEvent,
  type AnyThinkingBlock,
  ChatImportError,
  fromChatCompletionsMessages,
  OBSERVATION_ERROR_HEADER,
} from '@x/events';
import { checkLangChainMessages } from './check-langchain-message.js';
import { aiContent, imageUrl, unsupportedBlock } from './langchain-content.js';
import { type LangChainMessage, langChainMessageType } from './langchain-message.js';

/** The Chat Completions message `fromChatCompletionsMessages` imports (its wire type is not exported by name). */
type ChatCompletionMessageParam = Parameters<typeof fromChatCompletionsMessages>[0][number];

/**
 * `@langchain/core` messages as events, so a LangChain history can be continued here: `SystemMessage` →
 * SystemPromptEvent, `HumanMessage` → user MessageEvent, `AIMessage` → agent MessageEvent, or one ActionEvent per
 * tool call (`tool_calls`, `invalid_tool_calls`, then calls only its content names, in that order; on the first, the
 * reasoning: `additional_kwargs.reasoning_content`, else v1 `reasoning` blocks, and Anthropic `thinking` blocks as
 * the event's `thinking_blocks`), `ToolMessage` → ObservationEvent answering its call (as
 * `fromChatCompletionsMessages` imports them, its text and images the observation's content). Image blocks of every
 * LangChain shape are read, in human and tool messages (base64 data as a `data:` URL). Throws `ChatImportError`
 * naming the message index for a message type or content block events have no place for (a `ToolMessage` answering no
 * earlier call, `RemoveMessage`, audio or file blocks).
 * A `ToolMessage` whose `status` is `'error'` gives an observation with `is_error: true`, without the error header
 * `eventsToLangChainMessages` writes first in one (`is_error` is what gives it back). What does not fit LangChain's
 * types (`content: 42`, a null block, args that are not an object or that JSON cannot write) is a `ChatImportError` too.
 */
export function fromLangChainMessages(messages: readonly LangChainMessage[]): AnyEvent[] {
  checkLangChainMessages(messages);
  const thinking = new Map<number, AnyThinkingBlock[]>();
  const chat = messages.map((message, index) => {
    const converted = toChatMessage(message, index);
    if (converted.thinkingBlocks.length > 0) thinking.set(index, converted.thinkingBlocks);
    return converted.chat;
  });
  const events = fromChatCompletionsMessages(chat);
  // Each message gives one event but an assistant message with calls, which gives one per call: its first carries
  // the turn's thinking, as the events of an Anthropic turn do. A ToolMessage with `status: 'error'` (a `tool()`
  // that threw, under handleToolError) is an observation of an error.
  let at = 0;
  chat.forEach((message, index) => {
    const event = events[at];
    const blocks = thinking.get(index);
    if (blocks !== undefined && event?.kind === 'ActionEvent') events[at] = { ...event, thinking_blocks: blocks };
    else if (blocks !== undefined && event?.kind === 'MessageEvent') {
      events[at] = { ...event, llm_message: { ...event.llm_message, thinking_blocks: blocks } };
    } else if (event?.kind === 'ObservationEvent' && messages[index]?.status === 'error') {
      const content = withoutErrorHeader(event.observation.content);
      events[at] = { ...event, observation: { ...event.observation, content, is_error: true } };
    }
    at += message.role === 'assistant' ? Math.max(1, message.tool_calls?.length ?? 0) : 1;
  });
  return events;
}

/**
 * An error observation's content without the header `eventsToLangChainMessages` writes first in a failed tool's
 * `ToolMessage` (the reference's `[An error occurred during execution.]`, as the model is sent it): `is_error` puts it
 * back, so a history exported and imported again does not gain one more header each time.
 */
function withoutErrorHeader<Content>(content: Content): Content {
  if (!Array.isArray(content)) return content;
  const [first, ...rest] = content as unknown[];
  if (typeof first !== 'object' || first === null) return content;
  const part = first as { type?: unknown; text?: unknown };
  if (part.type !== 'text' || typeof part.text !== 'string' || !part.text.startsWith(OBSERVATION_ERROR_HEADER)) {
    return content;
  }
  const text = part.text.slice(OBSERVATION_ERROR_HEADER.length);
  return (text === '' && rest.length > 0 ? rest : [{ ...part, text }, ...rest]) as Content;
}

function toChatMessage(
  message: LangChainMessage,
  index: number,
): { chat: ChatCompletionMessageParam; thinkingBlocks: AnyThinkingBlock[] } {
  const type = langChainMessageType(message);
  if (type === 'ai') return assistantMessage(message, index);
  return { chat: otherMessage(message, index, type), thinkingBlocks: [] };
}

function otherMessage(message: LangChainMessage, index: number, type: string | undefined): ChatCompletionMessageParam {
  const name = message.name === undefined || message.name === '' ? {} : { name: message.name };
  switch (type) {
    case 'system':
      return { role: 'system', content: textOnly(message.content, index) };
    case 'human':
      return { role: 'user', content: textAndImages(message.content, index), ...name };
    case 'tool':
      if (typeof message.tool_call_id !== 'string' || message.tool_call_id === '') {
        throw new ChatImportError({ index, path: 'tool_call_id', message: 'a ToolMessage must name its tool call' });
      }
      // Images too: a tool that returns a screenshot or a chart answers with image blocks beside its text.
      return { role: 'tool', content: textAndImages(message.content, index), tool_call_id: message.tool_call_id };
    default:
      throw new ChatImportError({
        index,
        path: 'type',
        message: `a LangChain message of type "${type ?? 'unknown'}" has no event (use system, human, ai or tool)`,
      });
  }
}

function assistantMessage(
  message: LangChainMessage,
  index: number,
): { chat: ChatCompletionMessageParam; thinkingBlocks: AnyThinkingBlock[] } {
  const name = message.name === undefined || message.name === '' ? {} : { name: message.name };
  const content = aiContent(message, index);
  const calls = [
    ...(message.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.args),
    })),
    ...(message.invalid_tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.name ?? '',
      arguments: call.args ?? '',
    })),
    ...content.calls,
  ];
  const kwargsReasoning = message.additional_kwargs?.reasoning_content;
  const reasoning = typeof kwargsReasoning === 'string' && kwargsReasoning !== '' ? kwargsReasoning : content.reasoning;
  const chat = {
    role: 'assistant',
    content: content.text === '' ? null : content.text,
    ...name,
    ...(calls.length === 0
      ? {}
      : {
          tool_calls: calls.map((call, callIndex) => ({
            // LangChain lets a call go without an id (or with an empty one); an action needs one to be answered, and
            // calls of one turn need distinct ones to be told apart.
            id: call.id || `langchain-call-${index}-${callIndex}`,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        }),
    ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
  } as ChatCompletionMessageParam;
  return { chat, thinkingBlocks: content.thinkingBlocks };
}

/** The text of the content: the string, or its text blocks joined by newlines (other blocks are refused). */
function textOnly(content: LangChainMessage['content'], index: number): string {
  if (typeof content === 'string') return content;
  return content
    .map((block, blockIndex) => {
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      throw unsupportedBlock(index, blockIndex, block);
    })
    .join('\n');
}

/** Text and image blocks as Chat Completions parts (what a user message and a tool result may hold); others refused. */
function textAndImages(
  content: LangChainMessage['content'],
  index: number,
): string | ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[] {
  if (typeof content === 'string') return content;
  return content.map((block, blockIndex) => {
    if (block.type === 'text' && typeof block.text === 'string') return { type: 'text' as const, text: block.text };
    const url = imageUrl(block);
    if (url !== undefined) return { type: 'image_url' as const, image_url: { url } };
    throw unsupportedBlock(index, blockIndex, block);
  });
}
