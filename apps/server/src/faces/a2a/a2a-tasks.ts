import type { FileStore } from '@x/store';
import { assertMayDecide } from '../../conversations/approval-gate.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { clientText } from '../../internal/client-text.js';
import { A2aRpcError } from './a2a-rpc-error.js';
import { readMessageParts } from './message-parts.js';
import { projectTask, type TaskProjection } from './task-projection.js';

/** How long one wait for a run's end lasts before checking again (runs may be long). */
export const RUN_WAIT_MS = 60_000;

/** The conversation a task id names, open; TaskNotFound (-32001) for any id that is not one. */
export async function findTask(manager: ConversationManager, taskId: string): Promise<ManagedConversation> {
  const conversation = await manager.get(taskId).catch(() => undefined);
  if (conversation === undefined) throw new A2aRpcError('taskNotFound', `Task not found: '${clientText(taskId)}'`);
  await conversation.open();
  return conversation;
}

/**
 * The task as the conversation's log has it now; given the store, its history shows the data parts of the messages
 * that had some (message-parts.ts).
 */
export async function taskOf(conversation: ManagedConversation, store?: FileStore): Promise<TaskProjection> {
  const log = conversation.log;
  const parts = store === undefined ? {} : await readMessageParts(store, conversation.hex);
  return projectTask(conversation.id, await log.range(0, log.length), parts);
}

/** Resolves once the conversation's run (if any) is over. */
export async function runEnded(conversation: ManagedConversation): Promise<void> {
  while (conversation.isRunning) await conversation.waitForRun(RUN_WAIT_MS);
}

/**
 * `CancelTask`: pauses the conversation (a run stops between steps; the pause is logged at once, so the task is
 * `canceled` right away). A task waiting for a confirmation has its pending actions rejected first. Whether it may be
 * canceled is read from the task as `GetTask` has it: a completed or failed task is not cancelable (-32002), a
 * canceled one is returned as it is.
 */
export async function cancelTask(conversation: ManagedConversation): Promise<TaskProjection> {
  const open = await conversation.open();
  const task = await taskOf(conversation);
  const { state } = task;
  if (state === 'TASK_STATE_COMPLETED' || state === 'TASK_STATE_FAILED') {
    throw new A2aRpcError(
      'taskNotCancelable',
      `Task '${conversation.id}' has ended (${state}, conversation status '${open.state.execution_status}') and cannot be canceled`,
    );
  }
  if (state === 'TASK_STATE_CANCELED') return task;
  // Canceling rejects the pending actions: a decision, a decider's only (`approvalDeciders`).
  if (open.state.execution_status === 'waiting_for_confirmation')
    await open.rejectPendingActions('The task was canceled', { principal: assertMayDecide() });
  await conversation.pause();
  return taskOf(conversation);
}
