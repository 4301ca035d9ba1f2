import { type OutputMessage, outputTextOf, type ResponseObject } from './response-object.js';

/** One event of a Responses stream before it is numbered: OpenAI's `ResponseStreamEvent` without `sequence_number`. */
export type ResponseStreamEvent = { type: string } & Record<string, unknown>;

/** The events that open a stream, as soon as the run starts: the response `in_progress`, created then in progress. */
export function startEvents(started: ResponseObject): ResponseStreamEvent[] {
  return [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
  ];
}

/**
 * The events that carry the answer, in OpenAI's order: the message item added (in progress, empty), its output_text
 * part added, the text (one delta: the agent's final answer is known whole when the run ends), the text done, the part
 * done, the item done, and the response completed with it.
 */
export function answerEvents(completed: ResponseObject): ResponseStreamEvent[] {
  const message = completed.output[0] as OutputMessage;
  const text = message.content.map((part) => part.text).join('');
  const at = { item_id: message.id, output_index: 0, content_index: 0 };
  return [
    { type: 'response.output_item.added', output_index: 0, item: { ...message, status: 'in_progress', content: [] } },
    { type: 'response.content_part.added', ...at, part: outputTextOf('') },
    { type: 'response.output_text.delta', ...at, delta: text, logprobs: [] },
    { type: 'response.output_text.done', ...at, text, logprobs: [] },
    { type: 'response.content_part.done', ...at, part: outputTextOf(text) },
    { type: 'response.output_item.done', output_index: 0, item: message },
    { type: 'response.completed', response: completed },
  ];
}

/** The event that ends a stream whose run gave no answer: the response `failed` (or `cancelled`) with its error. */
export function failedEvent(ended: ResponseObject): ResponseStreamEvent {
  return { type: 'response.failed', response: ended };
}

/**
 * Numbers the events of one stream from 0 and frames each as a server-sent event named by its type, as OpenAI does
 * (the SDK's `ResponseStream` replays from a `sequence_number`, so they rise by one, with no gap).
 */
export function createEventFramer(): (event: ResponseStreamEvent) => string {
  let next = 0;
  return (event) => {
    const numbered = { ...event, sequence_number: next };
    next += 1;
    return `event: ${event.type}\ndata: ${JSON.stringify(numbered)}\n\n`;
  };
}
