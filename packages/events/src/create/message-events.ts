import type { MessageEvent, SystemPromptEvent } from '../schemas/llm-convertible-events.js';
import { type CreateEventInput, type CreateEventOptions, createEvent } from './create-event.js';

/** A SystemPromptEvent (source `agent`). `system_prompt`/`dynamic_context` may be plain strings. */
export function createSystemPromptEvent(
  fields: Omit<CreateEventInput<'SystemPromptEvent'>, 'system_prompt' | 'dynamic_context' | 'tools'> & {
    system_prompt: CreateEventInput<'SystemPromptEvent'>['system_prompt'] | string;
    dynamic_context?: CreateEventInput<'SystemPromptEvent'>['dynamic_context'] | string | null;
    tools?: CreateEventInput<'SystemPromptEvent'>['tools'];
  },
  options?: CreateEventOptions,
): SystemPromptEvent {
  const { system_prompt, dynamic_context, tools, ...rest } = fields;
  return createEvent(
    'SystemPromptEvent',
    {
      ...rest,
      system_prompt: asText(system_prompt),
      ...(dynamic_context == null ? {} : { dynamic_context: asText(dynamic_context) }),
      tools: tools ?? [],
    },
    options,
  );
}

/** A MessageEvent. `source` is required, as in the reference; `llm_message.content` may be a string. */
export function createMessageEvent(
  fields: CreateEventInput<'MessageEvent'>,
  options?: CreateEventOptions,
): MessageEvent {
  return createEvent('MessageEvent', fields, options);
}

/** A user message with one text part. */
export function userMessage(text: string): MessageEvent {
  return createMessageEvent({ source: 'user', llm_message: { role: 'user', content: text } });
}

/** An agent reply with one text part and no tool calls, optionally with the LLM response id. */
export function agentMessage(text: string, llmResponseId?: string): MessageEvent {
  return createMessageEvent({
    source: 'agent',
    llm_message: { role: 'assistant', content: text },
    ...(llmResponseId === undefined ? {} : { llm_response_id: llmResponseId }),
  });
}

function asText<T>(value: T | string): T | { type: 'text'; text: string } {
  return typeof value === 'string' ? { type: 'text', text: value } : value;
}
