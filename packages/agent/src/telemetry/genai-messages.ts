import type { LLMMessage } from '../llm/llm.js';

type Part =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown };

/**
 * Messages in the conventions' `gen_ai.input.messages` / `gen_ai.output.messages` JSON shape
 * (`{ role, parts: [...] }`); images are left out.
 */
export function genAIMessages(messages: readonly LLMMessage[], finishReason?: string | null): string {
  return JSON.stringify(
    messages.map((message) => {
      const parts: Part[] = [];
      const texts =
        typeof message.content === 'string'
          ? [message.content]
          : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
      if (message.role === 'tool') {
        parts.push({ type: 'tool_call_response', id: message.tool_call_id ?? '', response: texts.join('\n') });
      } else {
        if (message.reasoning_content) parts.push({ type: 'reasoning', content: message.reasoning_content });
        for (const text of texts) parts.push({ type: 'text', content: text });
        for (const call of message.tool_calls ?? []) {
          parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: parseArguments(call.arguments) });
        }
      }
      return { role: message.role, parts, ...(finishReason != null && { finish_reason: finishReason }) };
    }),
  );
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
