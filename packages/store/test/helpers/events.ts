import { randomUUID } from 'node:crypto';
import { type AnyEvent, parseEvent } from '@x/events';

/** A user MessageEvent built from plain JSON (the wire shape), validated by @x/events. */
export function userMessageEvent(text: string, id: string = randomUUID()): AnyEvent {
  return parseEvent({
    id,
    timestamp: '2026-11-21T10:00:00.000000',
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
    kind: 'MessageEvent',
  });
}

/** The text of a MessageEvent made by `userMessageEvent`, for assertions. */
export function messageText(event: AnyEvent): string {
  const message = (event as { llm_message?: { content?: { text?: string }[] } }).llm_message;
  return message?.content?.[0]?.text ?? '';
}
