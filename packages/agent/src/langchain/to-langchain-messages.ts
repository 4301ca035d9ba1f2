import type { AnyThinkingBlock, ContentPart, Message } from '@x/events';
import type {
  LangChainContentBlock,
  LangChainInvalidToolCall,
  LangChainMessage,
  LangChainToolCall,
} from './langchain-message.js';
import { loadLangChainMessages } from './load-langchain.js';

/**
 * LLM messages (`eventsToMessages`) as `@langchain/core` messages, each with the message's `name`: system →
 * `SystemMessage`, user → `HumanMessage`, assistant → `AIMessage` (tool calls in `tool_calls` with parsed `args`; arguments that are not a
 * JSON object in `invalid_tool_calls`; `reasoning_content` in `additional_kwargs`; Anthropic thinking blocks first in
 * its content, as ChatAnthropic writes them), tool → `ToolMessage` (`tool_call_id`, `name`). Content that is one text
 * part is a string; anything else is a list of `text` and `image_url` blocks.
 */
export async function toLangChainMessages(messages: readonly Message[]): Promise<LangChainMessage[]> {
  const { AIMessage, HumanMessage, SystemMessage, ToolMessage } = await loadLangChainMessages();
  return messages.map((message): LangChainMessage => {
    const content = toContent(message.content);
    switch (message.role) {
      case 'system':
        return new SystemMessage({ content, ...(message.name === undefined ? {} : { name: message.name }) });
      case 'user':
        return new HumanMessage({ content, ...(message.name === undefined ? {} : { name: message.name }) });
      case 'tool':
        return new ToolMessage({
          content,
          tool_call_id: message.tool_call_id ?? '',
          ...(message.name === undefined ? {} : { name: message.name }),
        });
      default: {
        // assistant
        const toolCalls: LangChainToolCall[] = [];
        const invalidToolCalls: LangChainInvalidToolCall[] = [];
        for (const call of message.tool_calls ?? []) {
          const args = parseArguments(call.arguments);
          if (args === undefined) {
            invalidToolCalls.push({
              id: call.id,
              name: call.name,
              args: call.arguments,
              error: 'the arguments are not a JSON object',
              type: 'invalid_tool_call',
            });
          } else toolCalls.push({ id: call.id, name: call.name, args, type: 'tool_call' });
        }
        return new AIMessage({
          content: withThinking(content, message.thinking_blocks ?? []),
          tool_calls: toolCalls,
          invalid_tool_calls: invalidToolCalls,
          ...(message.name === undefined ? {} : { name: message.name }),
          additional_kwargs:
            message.reasoning_content === undefined ? {} : { reasoning_content: message.reasoning_content },
        } as ConstructorParameters<typeof AIMessage>[0]);
      }
    }
  });
}

function toContent(parts: readonly ContentPart[]): string | LangChainContentBlock[] {
  if (parts.length === 0) return '';
  if (parts.length === 1 && parts[0]!.type === 'text') return parts[0]!.text;
  return parts.flatMap((part): LangChainContentBlock[] =>
    part.type === 'text'
      ? [{ type: 'text', text: part.text }]
      : part.image_urls.map((url) => ({ type: 'image_url', image_url: { url } })),
  );
}

/**
 * An assistant turn's thinking blocks ahead of its content, as `{ type: 'thinking', thinking, signature }` and
 * `{ type: 'redacted_thinking', data }` (ChatAnthropic's blocks, which it sends back: Anthropic refuses a tool-use turn
 * of a thinking model without them).
 */
function withThinking(
  content: string | LangChainContentBlock[],
  thinking: readonly AnyThinkingBlock[],
): string | LangChainContentBlock[] {
  if (thinking.length === 0) return content;
  const blocks: LangChainContentBlock[] = thinking.map((block) => ({ ...block }));
  if (typeof content !== 'string') return [...blocks, ...content];
  return content === '' ? blocks : [...blocks, { type: 'text', text: content }];
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
