import { type ActionEvent, type Message, messageSchema, safeParseEvent } from '@x/events';
import { z } from 'zod';
import { LLMInvalidRecordingError } from './errors/llm-invalid-recording-error.js';

/** One LLM response of a recorded conversation, replayed by `createOfflineLLM({ recording })`. */
export const recordedResponseSchema = z.object({
  /** The original response id (`llm_response_id`), kept so a replay links events the same way. */
  id: z.string(),
  message: messageSchema,
});
export type RecordedResponse = z.infer<typeof recordedResponseSchema>;

function fromActions(actions: ActionEvent[]): Message {
  const [first] = actions;
  const message: Message = {
    role: 'assistant',
    // Only the first action of a parallel batch carries the turn's text and reasoning (§9.2).
    content: first ? [...first.thought] : [],
    tool_calls: actions.map((action) => action.tool_call),
    thinking_blocks: first ? [...first.thinking_blocks] : [],
  };
  if (first?.reasoning_content !== undefined) message.reasoning_content = first.reasoning_content;
  if (first?.responses_reasoning_item !== undefined) message.responses_reasoning_item = first.responses_reasoning_item;
  return message;
}

/**
 * The LLM responses of a conversation, from its events (JSON values as stored, or parsed events) in
 * order: ActionEvents sharing an `llm_response_id` become one response with all their tool calls, an
 * agent MessageEvent becomes a text reply, everything else is skipped. Response ids are kept.
 * Throws `LLMInvalidRecordingError` naming the event's position and id when an event does not parse.
 */
export function recordingFromEvents(events: readonly unknown[]): RecordedResponse[] {
  const responses: ({ id: string; actions: ActionEvent[] } | { id: string; message: Message })[] = [];
  const byResponseId = new Map<string, ActionEvent[]>();
  let anonymous = 0;
  events.forEach((value, index) => {
    const result = safeParseEvent(value);
    if (!result.success) {
      throw new LLMInvalidRecordingError(
        `Event ${index} of the recording is not a valid event: ${result.error.message}`,
        {
          cause: result.error,
        },
      );
    }
    const event = result.event;
    if (event.kind === 'ActionEvent') {
      const group = byResponseId.get(event.llm_response_id);
      if (group) {
        group.push(event);
        return;
      }
      const actions = [event];
      byResponseId.set(event.llm_response_id, actions);
      responses.push({ id: event.llm_response_id, actions });
    } else if (event.kind === 'MessageEvent' && event.source === 'agent') {
      anonymous += 1;
      responses.push({ id: event.llm_response_id ?? `recorded-${anonymous}`, message: event.llm_message });
    }
  });
  return responses.map((response) =>
    'actions' in response
      ? { id: response.id, message: fromActions(response.actions) }
      : { id: response.id, message: response.message },
  );
}
