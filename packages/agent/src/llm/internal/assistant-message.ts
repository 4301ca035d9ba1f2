import type { Message, MessageToolCall } from '@x/events';

export interface AssistantParts {
  content: string | null | undefined;
  toolCalls: { id: string; name: string; arguments: string }[];
  reasoningContent: string | null | undefined;
}

/** The assistant Message of a Chat Completions reply, as a plain wire-shaped object. */
export function assistantMessage(parts: AssistantParts): Message {
  const message: Message = {
    role: 'assistant',
    content: parts.content ? [{ cache_prompt: false, type: 'text', text: parts.content }] : [],
    thinking_blocks: [],
  };
  if (parts.toolCalls.length > 0) {
    message.tool_calls = parts.toolCalls.map(
      (call): MessageToolCall => ({ id: call.id, name: call.name, arguments: call.arguments, origin: 'completion' }),
    );
  }
  // An empty reasoning string still counts (§9.1 step 7 treats non-null reasoning as a reasoning reply).
  if (typeof parts.reasoningContent === 'string') message.reasoning_content = parts.reasoningContent;
  return message;
}
