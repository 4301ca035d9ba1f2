import { type AnyEvent, ChatImportError, fromChatCompletionsMessages } from '@x/events';
import { type LangChainContentBlock, type LangChainMessage, langChainMessageType } from './langchain-message.js';

/** The Chat Completions message `fromChatCompletionsMessages` imports (its wire type is not exported by name). */
type ChatCompletionMessageParam = Parameters<typeof fromChatCompletionsMessages>[0][number];

/**
 * `@langchain/core` messages as events, so a LangChain history can be continued here: `SystemMessage` →
 * SystemPromptEvent, `HumanMessage` → user MessageEvent, `AIMessage` → agent MessageEvent, or one ActionEvent per
 * tool call (`tool_calls` and `invalid_tool_calls`, in that order; `reasoning_content` from `additional_kwargs` on the
 * first), `ToolMessage` → ObservationEvent answering its call (as `fromChatCompletionsMessages` imports them).
 * Throws `ChatImportError` naming the message index for a message type or content block events have no place for
 * (a `ToolMessage` answering no earlier call, `RemoveMessage`, audio or file blocks).
 */
export function fromLangChainMessages(messages: readonly LangChainMessage[]): AnyEvent[] {
  return fromChatCompletionsMessages(messages.map(toChatMessage));
}

function toChatMessage(message: LangChainMessage, index: number): ChatCompletionMessageParam {
  const type = langChainMessageType(message);
  const name = message.name === undefined || message.name === '' ? {} : { name: message.name };
  switch (type) {
    case 'system':
      return { role: 'system', content: textOnly(message.content, index) };
    case 'human':
      return { role: 'user', content: userContent(message.content, index), ...name };
    case 'tool':
      if (typeof message.tool_call_id !== 'string' || message.tool_call_id === '') {
        throw new ChatImportError({ index, path: 'tool_call_id', message: 'a ToolMessage must name its tool call' });
      }
      return { role: 'tool', content: textOnly(message.content, index), tool_call_id: message.tool_call_id };
    case 'ai': {
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
      ];
      const reasoning = message.additional_kwargs?.reasoning_content;
      const content = textOnly(message.content, index);
      return {
        role: 'assistant',
        content: content === '' ? null : content,
        ...name,
        ...(calls.length === 0
          ? {}
          : {
              tool_calls: calls.map((call, callIndex) => ({
                // LangChain lets a call go without an id; an action needs one to be answered.
                id: call.id ?? `langchain-call-${index}-${callIndex}`,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }),
        ...(typeof reasoning === 'string' && reasoning !== '' ? { reasoning_content: reasoning } : {}),
      } as ChatCompletionMessageParam;
    }
    default:
      throw new ChatImportError({
        index,
        path: 'type',
        message: `a LangChain message of type "${type ?? 'unknown'}" has no event (use system, human, ai or tool)`,
      });
  }
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

function userContent(
  content: LangChainMessage['content'],
  index: number,
): Extract<ChatCompletionMessageParam, { role: 'user' }>['content'] {
  if (typeof content === 'string') return content;
  return content.map((block, blockIndex) => {
    if (block.type === 'text' && typeof block.text === 'string') return { type: 'text' as const, text: block.text };
    const url = imageUrl(block);
    if (url !== undefined) return { type: 'image_url' as const, image_url: { url } };
    throw unsupportedBlock(index, blockIndex, block);
  });
}

/** `{ type: 'image_url', image_url: { url } | url }` (LangChain's OpenAI-style block) or v1's `{ type: 'image', url }`. */
function imageUrl(block: LangChainContentBlock): string | undefined {
  if (block.type === 'image_url') {
    const value = block.image_url;
    if (typeof value === 'string') return value;
    if (typeof value === 'object' && value !== null && typeof (value as { url?: unknown }).url === 'string') {
      return (value as { url: string }).url;
    }
  }
  if (block.type === 'image' && typeof block.url === 'string') return block.url;
  return undefined;
}

function unsupportedBlock(index: number, blockIndex: number, block: LangChainContentBlock): ChatImportError {
  return new ChatImportError({
    index,
    path: `content[${blockIndex}].type`,
    message: `a LangChain content block of type "${block.type}" cannot be represented in an event`,
  });
}
