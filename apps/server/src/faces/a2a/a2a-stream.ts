import type { ServerResponse } from 'node:http';
import { ConversationDeletedError } from '../../conversations/errors/conversation-deleted-error.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { runLogEntries } from '../../conversations/run-log-entries.js';
import type { A2aStreamResponse } from './a2a-types.js';
import { projectTask } from './task-projection.js';

export interface StreamTaskOptions {
  conversation: ManagedConversation;
  /** The JSON-RPC request id every streamed response carries. */
  requestId: string | number | null;
  /** The first log index whose events are streamed; the task snapshot sent first covers the ones before. */
  fromIndex: number;
  /**
   * The request has just started the task's run: its opening `Task` is submitted even where the log up to `fromIndex`
   * has it ended (a follow-up to a failed or canceled task), as the run's updates follow.
   */
  runStarted: boolean;
  response: ServerResponse;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

/** One server-sent event: a JSON-RPC response whose result is a `StreamResponse`; its SSE id is the log index. */
export function sseFrame(requestId: string | number | null, result: A2aStreamResponse, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify({ jsonrpc: '2.0', id: requestId, result })}\n\n`;
}

/**
 * Streams a task from the conversation's log: first the `Task` as the log has it up to `fromIndex`, then the
 * stream items of every event from `fromIndex` on (`TaskProjection.apply`), until the run is over and every event
 * it appended was sent. The snapshot and the stream meet at one log index, so nothing is sent twice or skipped.
 * A task deleted meanwhile ends the stream with `ConversationDeletedError` (answered as TaskNotFound).
 */
export async function streamTask(options: StreamTaskOptions): Promise<void> {
  const { conversation, requestId, response, signal } = options;
  const log = conversation.log;
  const snapshot = projectTask(conversation.id, await log.range(0, options.fromIndex));
  const write = (result: A2aStreamResponse, id?: number): void => {
    if (!response.writableEnded) response.write(sseFrame(requestId, result, id));
  };
  write({ task: snapshot.task({ runStarting: options.runStarted }) });

  // A failed status is held back until the next item or the end of the run: the log records the change to `error`
  // before the error itself, and a later failed status (carrying the error) replaces it, so a client gets one
  // terminal status, and it says why.
  let failed: { item: A2aStreamResponse; index: number } | undefined;
  for await (const { index, event } of runLogEntries(conversation, options.fromIndex, signal)) {
    for (const item of snapshot.apply(event, index)) {
      if ('statusUpdate' in item && item.statusUpdate.status.state === 'TASK_STATE_FAILED') {
        failed = { item, index };
        continue;
      }
      if (failed !== undefined) write(failed.item, failed.index);
      failed = undefined;
      write(item, index);
    }
  }
  if (failed !== undefined) write(failed.item, failed.index);
  // Deleted while it ran: the stream ends without a terminal status, so it says why (TaskNotFound, "was deleted").
  if (conversation.isDeleted) throw new ConversationDeletedError(conversation.id);
}
