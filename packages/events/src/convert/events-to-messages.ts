import { MultiActionThoughtError } from '../errors/multi-action-thought-error.js';
import type { Message, MessageToolCall } from '../schemas/content.js';
import type { AnyEvent } from '../schemas/events.js';
import { actionMessage, eventToLlmMessage, hasLlmMessage } from './event-to-llm-message.js';

/**
 * The LLM messages of an event list, normally `view.events` (reference §5), in log order:
 * consecutive ActionEvents sharing `llm_response_id` become one assistant message (thought,
 * reasoning and thinking from the first; a later member with a thought throws
 * `MultiActionThoughtError`), and consecutive plain user messages are merged into one.
 * Events without an LLM message (control and opaque events) are skipped and do not split a batch.
 * Tool results are not reordered and missing results are not repaired: that is the View's job.
 * Never changes its input.
 */
export function eventsToMessages(events: readonly AnyEvent[]): Message[] {
  const input = events.every(hasLlmMessage) ? events : events.filter(hasLlmMessage);
  const out: Message[] = [];
  // True when out's last message was built here by merging, so its content array is ours to extend.
  let lastIsOwnedMerge = false;
  let i = 0;
  while (i < input.length) {
    const event = input[i] as AnyEvent;
    let message: Message | undefined;
    if (event.kind === 'ActionEvent') {
      const toolCalls: MessageToolCall[] = [event.tool_call];
      let j = i + 1;
      for (; j < input.length; j++) {
        const next = input[j] as AnyEvent;
        if (next.kind !== 'ActionEvent' || next.llm_response_id !== event.llm_response_id) break;
        if (next.thought.length > 0) {
          throw new MultiActionThoughtError({ eventId: next.id, llmResponseId: next.llm_response_id });
        }
        toolCalls.push(next.tool_call);
      }
      message = actionMessage(event, toolCalls);
      i = j;
    } else {
      message = eventToLlmMessage(event);
      i += 1;
    }
    if (message === undefined) continue;

    const previous = out[out.length - 1];
    if (previous !== undefined && isPlainUserMessage(previous) && isPlainUserMessage(message)) {
      if (lastIsOwnedMerge) {
        previous.content.push(...message.content);
      } else {
        out[out.length - 1] = { ...previous, content: [...previous.content, ...message.content] };
        lastIsOwnedMerge = true;
      }
      continue;
    }
    out.push(message);
    lastIsOwnedMerge = false;
  }
  return out;
}

/** Role user with no tool calls, tool_call_id or name: the only messages the reference merges. */
function isPlainUserMessage(message: Message): boolean {
  return (
    message.role === 'user' &&
    message.tool_calls === undefined &&
    message.tool_call_id === undefined &&
    message.name === undefined
  );
}
