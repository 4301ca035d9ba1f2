import type { ServerResponse } from 'node:http';
import { type AnyEvent, getEventError } from '@x/events';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { runLogEntries } from '../../conversations/run-log-entries.js';
import { AG_UI_PROTOCOL_VERSION, type AgUiEvent, type AgUiRunOutcome, agUiEventsOf, sseFrames } from './agui-events.js';

export interface StreamRunOptions {
  conversation: ManagedConversation;
  threadId: string;
  runId: string;
  /** The first log index to send (a reconnect's `Last-Event-ID` + 1, or the log's length before this run). */
  fromIndex: number;
  response: ServerResponse;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

/**
 * Streams one AG-UI run from the conversation's log: RUN_STARTED, a state snapshot, the AG-UI events of every log
 * event from `fromIndex` on (each log event's frames written at once, the last carrying its log index as the SSE
 * id), until the conversation's run is over and every event it appended was sent; then RUN_FINISHED (success,
 * an interrupt per action awaiting confirmation, or cancelled when paused) or RUN_ERROR. The log is the source,
 * so a reconnect from any id misses nothing and repeats nothing.
 */
export async function streamRun(options: StreamRunOptions): Promise<void> {
  const { conversation, threadId, runId, response, signal } = options;
  const open = await conversation.open();
  const write = (events: readonly AgUiEvent[], id?: number): void => {
    if (!response.writableEnded) response.write(sseFrames(events, id));
  };
  write([
    { type: 'RUN_STARTED', threadId, runId, protocolVersion: AG_UI_PROTOCOL_VERSION },
    { type: 'STATE_SNAPSHOT', snapshot: { execution_status: open.state.execution_status } },
  ]);

  let lastError: string | undefined;
  for await (const { index, event } of runLogEntries(conversation, options.fromIndex, signal)) {
    lastError = errorText(event) ?? lastError;
    write(agUiEventsOf(event), index);
  }
  if (signal.aborted) return;
  write([await finalEvent(conversation, threadId, runId, lastError)]);
}

function errorText(event: AnyEvent): string | undefined {
  if (event.kind !== 'ConversationErrorEvent' && event.kind !== 'ServerErrorEvent') return undefined;
  return getEventError(event)?.message;
}

async function finalEvent(
  conversation: ManagedConversation,
  threadId: string,
  runId: string,
  lastError: string | undefined,
): Promise<AgUiEvent> {
  const open = await conversation.open();
  const status = open.state.execution_status;
  if (status === 'error' || status === 'stuck') {
    return { type: 'RUN_ERROR', code: status, message: lastError ?? `The run ended with status '${status}'` };
  }
  let outcome: AgUiRunOutcome = { type: 'success' };
  if (status === 'waiting_for_confirmation') {
    const pending = await open.pendingActions();
    outcome = {
      type: 'interrupt',
      interrupts: pending.map((action) => ({
        id: action.id,
        reason: 'confirmation',
        message: `Confirm running ${action.tool_name}`,
        toolCallId: action.tool_call_id,
      })),
    };
  } else if (status === 'paused') {
    outcome = { type: 'cancelled' };
  }
  return { type: 'RUN_FINISHED', threadId, runId, outcome };
}
