import { type AnyEvent, eventsToMessages, type Message, parseEvent, View } from '@x/events';

/** What the agent sent the model before one recorded response, as far as the events tell it. */
export interface RecordedRequest {
  /** The response that answered it (`llm_response_id`, or `recorded-N` for an agent message without one). */
  readonly responseId: string;
  /** The messages of the view the agent had then (condensations applied), as `eventsToMessages` renders them. */
  readonly messages: Message[];
  /** The tools the conversation's SystemPromptEvent listed: name (its title) and description. */
  readonly tools: { name: string; description: string }[];
}

/**
 * The request behind every LLM response of a recorded conversation, in the order `recordingFromEvents`
 * gives the responses: for each, the view of the events before its first event, and the tool list.
 */
export function recordedRequests(events: readonly unknown[]): RecordedRequest[] {
  const parsed: AnyEvent[] = events.map((value) => parseEvent(value));
  const requests: RecordedRequest[] = [];
  const seenResponses = new Set<string>();
  let tools: RecordedRequest['tools'] = [];
  let anonymous = 0;
  parsed.forEach((event, index) => {
    if (event.kind === 'SystemPromptEvent') {
      tools = event.tools.map((tool) => ({
        name: String((tool as { title?: unknown }).title ?? ''),
        description: String((tool as { description?: unknown }).description ?? ''),
      }));
      return;
    }
    let responseId: string | undefined;
    if (event.kind === 'ActionEvent') {
      if (seenResponses.has(event.llm_response_id)) return;
      seenResponses.add(event.llm_response_id);
      responseId = event.llm_response_id;
    } else if (event.kind === 'MessageEvent' && event.source === 'agent') {
      anonymous += 1;
      responseId = event.llm_response_id ?? `recorded-${anonymous}`;
    } else {
      return;
    }
    const view = View.fromEvents(parsed.slice(0, index));
    requests.push({ responseId, messages: eventsToMessages(view.events), tools });
  });
  return requests;
}
