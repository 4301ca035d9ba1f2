import { type AnyEvent, getEventText, observationText } from '@x/events';
import type { AgUiRunErrorCode } from './ag-ui-run-error.js';
import { errorTextOr } from './error-text.js';

/**
 * The AG-UI events this face emits (AG-UI protocol 1.0), as plain JSON objects: the face depends on no AG-UI
 * package at run time. Field names follow `@ag-ui/core`.
 */
export type AgUiEvent =
  | { type: 'RUN_STARTED'; threadId: string; runId: string; protocolVersion?: string }
  | { type: 'RUN_FINISHED'; threadId: string; runId: string; outcome: AgUiRunOutcome; result?: unknown }
  | { type: 'RUN_ERROR'; message: string; code: AgUiRunErrorEventCode }
  | { type: 'TEXT_MESSAGE_START'; messageId: string; role: 'assistant' }
  | { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'TEXT_MESSAGE_END'; messageId: string }
  | { type: 'REASONING_START'; messageId: string }
  | { type: 'REASONING_MESSAGE_START'; messageId: string; role: 'reasoning' }
  | { type: 'REASONING_MESSAGE_CONTENT'; messageId: string; delta: string }
  | { type: 'REASONING_MESSAGE_END'; messageId: string }
  | { type: 'REASONING_END'; messageId: string }
  | { type: 'TOOL_CALL_START'; toolCallId: string; toolCallName: string; parentMessageId?: string }
  | { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string }
  | { type: 'TOOL_CALL_END'; toolCallId: string }
  | { type: 'TOOL_CALL_RESULT'; messageId: string; toolCallId: string; content: string; role: 'tool' }
  | { type: 'STATE_SNAPSHOT'; snapshot: Record<string, unknown> }
  | { type: 'STATE_DELTA'; delta: ({ op: 'add'; path: string; value: unknown } | { op: 'remove'; path: string })[] };

/**
 * The class of failure a `RUN_ERROR` names, always given: a run input refused before anything is recorded
 * (`AgUiRunErrorCode`), a run that ended with status `error` or `stuck`, a thread deleted while its run streamed
 * (`conversation_deleted`), or a stream the server failed to go on writing after RUN_STARTED (`stream_failed`: the
 * run itself may go on; a client may reattach with `Last-Event-ID`).
 */
export type AgUiRunErrorEventCode = AgUiRunErrorCode | 'error' | 'stuck' | 'conversation_deleted' | 'stream_failed';

/**
 * An interrupt this face raises: an action waiting for the user's confirmation, or (only beside one) a frontend tool
 * call waiting for the client's result (`tool_call`: answered by its `role: "tool"` message, its resume entry only
 * acknowledges it).
 */
export interface AgUiInterrupt {
  id: string;
  reason: 'confirmation' | 'tool_call';
  message: string;
  toolCallId: string;
}

export type AgUiRunOutcome =
  | { type: 'success'; pendingToolCallIds?: string[] }
  | { type: 'interrupt'; interrupts: AgUiInterrupt[] }
  | { type: 'cancelled' };

/** The AG-UI protocol version this face speaks. */
export const AG_UI_PROTOCOL_VERSION = '1.0';

function textMessage(messageId: string, text: string): AgUiEvent[] {
  return [
    { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
    { type: 'TEXT_MESSAGE_CONTENT', messageId, delta: text },
    { type: 'TEXT_MESSAGE_END', messageId },
  ];
}

/**
 * The AG-UI events one log event stands for. User messages are the client's own (it sent them) and control
 * events have no AG-UI counterpart: both map to nothing. An agent message is one text message; an action is its
 * thought (as a text message, when it has one) and one tool call; an observation, a rejection or a tool error is
 * the tool call's result; state updates are the shared state's (`shared-state.ts`), not mapped here. Message and tool call ids are the events' ids and the
 * model's tool call ids, so a client can match what it receives with the conversation's log.
 */
export function agUiEventsOf(event: AnyEvent): AgUiEvent[] {
  switch (event.kind) {
    case 'MessageEvent': {
      if (event.source !== 'agent') return [];
      const text = getEventText(event);
      return text === '' ? [] : textMessage(event.id, text);
    }
    case 'ActionEvent': {
      const thought = getEventText(event);
      const call = event.tool_call;
      return [
        ...(thought === '' ? [] : textMessage(event.id, thought)),
        {
          type: 'TOOL_CALL_START',
          toolCallId: event.tool_call_id,
          toolCallName: event.tool_name,
          // Always named: a client makes the call's assistant message under this id, so the id it sends back in
          // `messages` is a log event's (without it the client would use the tool call id, unknown to the log).
          parentMessageId: event.id,
        },
        { type: 'TOOL_CALL_ARGS', toolCallId: event.tool_call_id, delta: call.arguments },
        { type: 'TOOL_CALL_END', toolCallId: event.tool_call_id },
      ];
    }
    case 'ObservationEvent':
      return [result(event.id, event.tool_call_id, observationText(event.observation))];
    case 'UserRejectObservation':
      return [result(event.id, event.tool_call_id, `Action rejected: ${event.rejection_reason}`)];
    case 'AgentErrorEvent':
      return [result(event.id, event.tool_call_id, errorTextOr(event.error, `${event.tool_name} failed`))];
    default:
      return [];
  }
}

function result(messageId: string, toolCallId: string, content: string): AgUiEvent {
  return { type: 'TOOL_CALL_RESULT', messageId, toolCallId, content, role: 'tool' };
}

/** One server-sent event frame per AG-UI event; `id` goes on the last, so a reconnect never splits a log event. */
export function sseFrames(events: readonly AgUiEvent[], id?: number): string {
  return events
    .map((event, position) => {
      const last = position === events.length - 1;
      return `${last && id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(event)}\n\n`;
    })
    .join('');
}
