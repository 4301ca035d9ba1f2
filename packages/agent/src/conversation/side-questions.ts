import {
  type AnyEvent,
  eventsToMessages,
  isObservationLike,
  type LLMConvertibleEvent,
  type Message,
  type View,
} from '@x/events';
import type { EventLogLike } from '@x/store';
import type { LLM, LLMResponse } from '../llm/llm.js';
import { NoUserMessageError } from './errors/no-user-message-error.js';

const ASK_PREFIX =
  'Answer this side question from the conversation so far. Do not call tools and do not continue the task.\n\n';

/** Records the metrics of a side call (under the LLM's usage id); the conversation passes its own. */
export type RecordLLMResponse = (llm: LLM, response: LLMResponse) => Promise<void>;

/**
 * A side question answered from the conversation's context (reference `ask_agent`): the model sees the
 * current view plus the question, no tools are offered, and no event but the call's metrics is
 * recorded. Tool calls still waiting for their results (a run in progress) are left out so the
 * request is well-formed.
 */
export async function askAgent(options: {
  llm: LLM;
  view: View;
  question: string;
  recordResponse?: RecordLLMResponse;
}): Promise<string> {
  const answered = new Set<string>();
  for (const event of options.view.events) if (isObservationLike(event)) answered.add(event.tool_call_id);
  const events = options.view.events.filter(
    (event: LLMConvertibleEvent) => event.kind !== 'ActionEvent' || answered.has(event.tool_call_id),
  );
  const question: Message = {
    role: 'user',
    content: [{ cache_prompt: false, type: 'text', text: `${ASK_PREFIX}${options.question}` }],
    thinking_blocks: [],
  };
  const response = await options.llm.complete({ messages: [...eventsToMessages(events), question] });
  await options.recordResponse?.(options.llm, response);
  return textOf(response.message);
}

/**
 * A short title for the conversation from its first user message: asked of the model, or, for the
 * offline model or when the model fails, the message's first line shortened.
 */
export async function generateTitle(options: {
  conversationId: string;
  log: EventLogLike;
  llm: LLM;
  maxLength?: number;
  recordResponse?: RecordLLMResponse;
}): Promise<string> {
  const maxLength = options.maxLength ?? 60;
  const first = await firstUserMessage(options.log);
  if (first === undefined) throw new NoUserMessageError(options.conversationId);
  const text = textOf(first.llm_message).trim();
  if (!options.llm.offline) {
    try {
      const response = await options.llm.complete({
        messages: [
          {
            role: 'system',
            content: `Write a concise title (at most ${maxLength} characters, no quotes) for a conversation that starts with the user's message below. Reply with the title only.`,
          },
          { role: 'user', content: text },
        ],
      });
      await options.recordResponse?.(options.llm, response);
      const title = textOf(response.message)
        .trim()
        .replace(/^["']|["']$/g, '');
      if (title !== '') return shorten(title, maxLength);
    } catch {
      // Fall back to the message itself: a title is a convenience, not worth failing over.
    }
  }
  return shorten(text.split('\n')[0] ?? text, maxLength);
}

async function firstUserMessage(log: EventLogLike): Promise<Extract<AnyEvent, { kind: 'MessageEvent' }> | undefined> {
  for await (const event of log.iterate()) {
    if (event.kind === 'MessageEvent' && event.source === 'user') return event;
  }
  return undefined;
}

function textOf(message: Message): string {
  return message.content
    .filter((part) => part.type === 'text')
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

function shorten(text: string, maxLength: number): string {
  const trimmed = text.trim();
  return trimmed.length <= maxLength ? trimmed : `${trimmed.slice(0, maxLength - 1).trimEnd()}…`;
}
