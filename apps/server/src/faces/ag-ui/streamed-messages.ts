import { type AnyEvent, getEventText, type StreamingDeltaEvent } from '@x/events';
import { type AgUiEvent, agUiEventsOf } from './agui-events.js';

/** The suffix of a streamed text message's id: `<id of the last log event sent before it>:text`. */
const TEXT_SUFFIX = ':text';
const REASONING_SUFFIX = ':reasoning';

/**
 * The log event id a streamed message's id names, or undefined for any other id. A streamed message's id is the
 * id of the log event before it plus a suffix, so a client's history that holds it still points into the log.
 */
export function streamAnchorOf(messageId: string): string | undefined {
  return messageId.endsWith(TEXT_SUFFIX) ? messageId.slice(0, -TEXT_SUFFIX.length) : undefined;
}

/** Whether a log event may carry the text of the model call whose tokens were streamed. */
export function closesStream(event: AnyEvent): boolean {
  return (
    event.source === 'agent' ||
    event.kind === 'ConversationErrorEvent' ||
    event.kind === 'ServerErrorEvent' ||
    event.kind === 'PauseEvent'
  );
}

/**
 * Turns the model's token deltas into AG-UI text (and reasoning) message events, and the log events that follow
 * into the events that close them. A streamed text message is ended by the log event that carries its text (an
 * agent message, or an action's thought) with the same message id, so the client's assembled message equals the
 * logged one: the text already streamed is not sent again, only what is missing; a logged text that does not
 * continue what was streamed (a retried model call) ends the streamed message and is sent whole under its event id.
 * Pure: the stream decides which deltas reach it and when (`agui-stream.ts`).
 */
export class StreamedMessages {
  #text: { messageId: string; sent: string } | undefined;
  #reasoning: string | undefined;
  /** The reasoning message ids given out, so a second reasoning message under one anchor gets an id of its own. */
  #reasoningIds = new Set<string>();

  /**
   * The events of one delta; `anchorId` is the id of the last log event sent before it. Reasoning that comes after
   * the text began (a model that thinks between sentences) is a reasoning message of its own, streamed while the text
   * message stays open: AG-UI lets the two run side by side, and the text still ends with the log event carrying it.
   */
  delta(event: StreamingDeltaEvent, anchorId: string): AgUiEvent[] {
    const out: AgUiEvent[] = [];
    const reasoning = event.reasoning_content ?? '';
    const content = event.content ?? '';
    if (reasoning !== '') {
      if (this.#reasoning === undefined) {
        this.#reasoning = this.#newReasoningId(anchorId);
        out.push({ type: 'REASONING_START', messageId: this.#reasoning });
        out.push({ type: 'REASONING_MESSAGE_START', messageId: this.#reasoning, role: 'reasoning' });
      }
      out.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: this.#reasoning, delta: reasoning });
    }
    if (content === '') return out;
    out.push(...this.#endReasoning());
    if (this.#text === undefined) {
      this.#text = { messageId: `${anchorId}${TEXT_SUFFIX}`, sent: '' };
      out.push({ type: 'TEXT_MESSAGE_START', messageId: this.#text.messageId, role: 'assistant' });
    }
    this.#text.sent += content;
    out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: this.#text.messageId, delta: content });
    return out;
  }

  /** The events of one log event: as `agUiEventsOf` maps it, merged with the streamed message it ends. */
  logged(event: AnyEvent): AgUiEvent[] {
    const mapped = agUiEventsOf(event);
    if (!closesStream(event)) return mapped;
    const open = this.#text;
    const out = this.#endReasoning();
    this.#text = undefined;
    if (open === undefined) return [...out, ...mapped];
    const text = event.kind === 'MessageEvent' || event.kind === 'ActionEvent' ? getEventText(event) : '';
    if (text === '' || !text.startsWith(open.sent)) {
      return [...out, { type: 'TEXT_MESSAGE_END', messageId: open.messageId }, ...mapped];
    }
    const rest = text.slice(open.sent.length);
    if (rest !== '') out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: open.messageId, delta: rest });
    out.push({ type: 'TEXT_MESSAGE_END', messageId: open.messageId });
    // The mapped text message is the one just ended: drop it, and hang the tool call on the streamed message.
    for (const mappedEvent of mapped) {
      if (mappedEvent.type.startsWith('TEXT_MESSAGE_')) continue;
      out.push(
        mappedEvent.type === 'TOOL_CALL_START' ? { ...mappedEvent, parentMessageId: open.messageId } : mappedEvent,
      );
    }
    return out;
  }

  /** Ends what is still open (the run ended without the log event that carries it). */
  close(): AgUiEvent[] {
    const out = this.#endReasoning();
    if (this.#text !== undefined) out.push({ type: 'TEXT_MESSAGE_END', messageId: this.#text.messageId });
    this.#text = undefined;
    return out;
  }

  #newReasoningId(anchorId: string): string {
    const first = `${anchorId}${REASONING_SUFFIX}`;
    let id = first;
    for (let count = 2; this.#reasoningIds.has(id); count += 1) id = `${first}:${count}`;
    this.#reasoningIds.add(id);
    return id;
  }

  #endReasoning(): AgUiEvent[] {
    const messageId = this.#reasoning;
    if (messageId === undefined) return [];
    this.#reasoning = undefined;
    return [
      { type: 'REASONING_MESSAGE_END', messageId },
      { type: 'REASONING_END', messageId },
    ];
  }
}
