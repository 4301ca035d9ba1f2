import type { ServerResponse } from 'node:http';
import { CLIENT_TOOL_OBSERVATION_KIND } from '@x/agent';
import { type ActionEvent, type AnyEvent, getEventError } from '@x/events';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { runLogEntries } from '../../conversations/run-log-entries.js';
import {
  AG_UI_PROTOCOL_VERSION,
  type AgUiEvent,
  type AgUiInterrupt,
  type AgUiRunOutcome,
  sseFrames,
} from './agui-events.js';
import type { DeltaFeed, FedDelta } from './delta-feed.js';
import { errorTextOr } from './error-text.js';
import { isFrontendCall } from './frontend-tools.js';
import { SharedStateView } from './shared-state.js';
import { closesStream, StreamedMessages } from './streamed-messages.js';

export interface StreamRunOptions {
  conversation: ManagedConversation;
  threadId: string;
  runId: string;
  /** The first log index to send (a reconnect's `Last-Event-ID` + 1, or the log's length before this run). */
  fromIndex: number;
  /** The shared state (session state) as it was at `fromIndex`, or later: the stream's STATE_SNAPSHOT. */
  sharedState: Readonly<Record<string, unknown>>;
  /** The model's token deltas, fed from before the run input was applied (the LLM's `stream` flag). */
  deltas: DeltaFeed;
  response: ServerResponse;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  /**
   * The tool call ids of the frontend results the run input brought: the client added its own tool message for each,
   * so their observations are not sent back (its reducer would hold two results for one call). A client that did not
   * send them (a reattach) gets them.
   */
  clientResults?: ReadonlySet<string>;
}

/** Whether the event is the result of a frontend call that the client sent with this stream's input. */
function sentByClient(event: AnyEvent, clientResults: ReadonlySet<string>): boolean {
  return (
    event.kind === 'ObservationEvent' &&
    event.observation.kind === CLIENT_TOOL_OBSERVATION_KIND &&
    clientResults.has(event.tool_call_id)
  );
}

/**
 * Streams one AG-UI run from the conversation's log: RUN_STARTED, the shared state's snapshot, the AG-UI events of every log
 * event from `fromIndex` on (each log event's frames written at once, the last carrying its log index as the SSE
 * id), until the conversation's run is over and every event it appended was sent; then RUN_FINISHED (success,
 * an interrupt per action awaiting confirmation, or cancelled when paused) or RUN_ERROR (also when the thread was
 * deleted meanwhile, code `conversation_deleted`). The log is the source,
 * so a reconnect from any id misses nothing and repeats nothing.
 *
 * Token deltas are interleaved where they belong: a delta is written once every log event appended before it was
 * published has been written, with the SSE id of the last of them, so a reconnect resumes from the log and gets
 * the whole text of a message whose tokens it missed (`StreamedMessages` closes a streamed message with the log
 * event that carries it).
 */
export async function streamRun(options: StreamRunOptions): Promise<void> {
  try {
    await stream(options);
  } finally {
    options.deltas.stop();
  }
}

async function stream(options: StreamRunOptions): Promise<void> {
  const { conversation, threadId, runId, response, signal, deltas, clientResults = new Set<string>() } = options;
  const write = (events: readonly AgUiEvent[], id?: number): void => {
    if (events.length > 0 && !response.writableEnded) response.write(sseFrames(events, id));
  };
  const state = new SharedStateView(options.sharedState);
  write([{ type: 'RUN_STARTED', threadId, runId, protocolVersion: AG_UI_PROTOCOL_VERSION }, state.snapshot()]);

  const messages = new StreamedMessages();
  let sentUpTo = options.fromIndex;
  let anchorId = sentUpTo > 0 ? conversation.log.idAt(sentUpTo - 1) : 'start';
  // Attached in the middle of a run: the model call under way may have streamed before this feed; skip its deltas
  // until a log event ends it (its text then comes whole from the log).
  let skipping = deltas.midRunFrom !== undefined;
  let pending: FedDelta[] = [];
  const writeDelta = ({ event }: FedDelta): void => {
    if (!skipping) write(messages.delta(event, anchorId), sentUpTo - 1);
  };
  deltas.attach((delta) => {
    if (pending.length === 0 && sentUpTo >= delta.after) writeDelta(delta);
    else pending.push(delta);
  });

  let lastError: string | undefined;
  for await (const { index, event } of runLogEntries(conversation, options.fromIndex, signal)) {
    lastError = errorText(event) ?? lastError;
    const mapped = sentByClient(event, clientResults) ? [] : messages.logged(event);
    write([...mapped, ...state.logged(event)], index);
    sentUpTo = index + 1;
    anchorId = event.id;
    if (skipping && index >= (deltas.midRunFrom ?? 0) && closesStream(event)) skipping = false;
    const ready = pending.filter((delta) => delta.after <= sentUpTo);
    pending = pending.filter((delta) => delta.after > sentUpTo);
    for (const delta of ready) writeDelta(delta);
  }
  deltas.stop();
  if (signal.aborted) return;
  write(messages.close());
  // Deleted while it ran: the run was stopped with it, which is no success; the thread is gone.
  if (conversation.isDeleted) {
    write([{ type: 'RUN_ERROR', code: 'conversation_deleted', message: `Thread '${threadId}' was deleted` }]);
    return;
  }
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
    // A run that failed logged its error last; a stuck run logs none, so an error the stream carried before it (an
    // MCP server that failed to start, an earlier run's failure on a reattach) is not why it ended.
    const reason = status === 'error' ? lastError : undefined;
    return { type: 'RUN_ERROR', code: status, message: errorTextOr(reason, `The run ended with status '${status}'`) };
  }
  let outcome: AgUiRunOutcome = { type: 'success' };
  if (status === 'waiting_for_confirmation') {
    const actions = await open.pendingActions();
    if (actions.some((action) => !isFrontendCall(action))) {
      // Something waits for the user: an interrupt. The interrupt outcome has no `pendingToolCallIds`, so a frontend
      // call waiting beside a confirmation is an interrupt too, or a client that reattached after the call was
      // streamed could not know that the thread also waits for its result.
      outcome = { type: 'interrupt', interrupts: actions.map(interruptOf) };
    } else if (actions.length > 0) {
      // Only frontend calls: the run succeeded, their results come next run. They are named, so a client that did not
      // see them started (one that reattached after them) still knows them.
      outcome = { type: 'success', pendingToolCallIds: actions.map((action) => action.tool_call_id) };
    }
  } else if (status === 'paused') {
    outcome = { type: 'cancelled' };
  }
  return { type: 'RUN_FINISHED', threadId, runId, outcome };
}

/** What a pending action waits for, as an interrupt answered by its action id (`apply-run-input.ts`). */
function interruptOf(action: ActionEvent): AgUiInterrupt {
  if (isFrontendCall(action)) {
    return {
      id: action.id,
      reason: 'tool_call',
      message: `Run ${action.tool_name} and send its result as a message with role 'tool' and toolCallId '${action.tool_call_id}'`,
      toolCallId: action.tool_call_id,
    };
  }
  return {
    id: action.id,
    reason: 'confirmation',
    message: `Confirm running ${action.tool_name}`,
    toolCallId: action.tool_call_id,
  };
}
