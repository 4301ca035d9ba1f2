import { randomUUID } from 'node:crypto';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { type A2aIncomingMessage, messageText } from './a2a-requests.js';
import { A2aRpcError } from './a2a-rpc-error.js';
import { projectTask, type TaskProjection } from './task-projection.js';

/** How long one wait for a run's end lasts before checking again (runs may be long). */
export const RUN_WAIT_MS = 60_000;

/** The conversation a task id names, open; TaskNotFound (-32001) for any id that is not one. */
export async function findTask(manager: ConversationManager, taskId: string): Promise<ManagedConversation> {
  const conversation = await manager.get(taskId).catch(() => undefined);
  if (conversation === undefined) throw new A2aRpcError('taskNotFound', `Task not found: '${taskId}'`);
  await conversation.open();
  return conversation;
}

/** The task as the conversation's log has it now. */
export async function taskOf(conversation: ManagedConversation): Promise<TaskProjection> {
  const log = conversation.log;
  return projectTask(conversation.id, await log.range(0, log.length));
}

/** Resolves once the conversation's run (if any) is over. */
export async function runEnded(conversation: ManagedConversation): Promise<void> {
  while (conversation.isRunning) await conversation.waitForRun(RUN_WAIT_MS);
}

/**
 * Applies an incoming message and starts the run it asks for. Without `taskId` it creates a conversation from
 * `metadata.conversation` or else the face's default create body. With `taskId`, a task waiting for a
 * confirmation takes `metadata.confirmation` (approve runs the pending actions; a refusal, or a plain text
 * answer, rejects them with that reason); otherwise its text is a new user message. A task that is working refuses
 * new messages (cancel it or wait). Returns the conversation and the log index its run's events start at.
 */
export async function applyMessage(
  manager: ConversationManager,
  message: A2aIncomingMessage,
  defaultConversation: StartConversationRequest | undefined,
): Promise<{ conversation: ManagedConversation; fromIndex: number }> {
  const text = messageText(message);
  const taskId = message.taskId === undefined || message.taskId === '' ? undefined : message.taskId;
  if (taskId === undefined) {
    const create = message.metadata?.conversation ?? defaultConversation;
    if (create === undefined) {
      throw new A2aRpcError(
        'invalidParams',
        'This server has no default agent for A2A: pass the conversation create body (agent, llm, tools) as message.metadata.conversation',
      );
    }
    if (text === '') throw new A2aRpcError('invalidParams', 'message.parts: a new task needs a text part');
    const { conversation } = await manager.create({ ...create, conversation_id: randomUUID(), initial_message: null });
    await conversation.sendMessage(userMessage(text), { run: false });
    const fromIndex = conversation.log.length;
    await conversation.startRun();
    return { conversation, fromIndex };
  }
  const conversation = await findTask(manager, taskId);
  if (conversation.isRunning) {
    throw new A2aRpcError(
      'unsupportedOperation',
      `Task '${taskId}' is working: wait for it to stop, or cancel it first`,
    );
  }
  const open = await conversation.open();
  const waiting = open.state.execution_status === 'waiting_for_confirmation';
  const confirmation = message.metadata?.confirmation;
  if (waiting && confirmation?.approved !== true) {
    const reason = confirmation?.reason ?? (text === '' ? 'The user declined the action' : text);
    await open.rejectPendingActions(reason);
  } else if (!waiting && text === '') {
    throw new A2aRpcError('invalidParams', 'message.parts: the message has no text part');
  }
  // While waiting, the text is the answer to the confirmation, not a new turn.
  if (text !== '' && !waiting) {
    await conversation.sendMessage(userMessage(text), { run: false });
  }
  const fromIndex = conversation.log.length;
  await conversation.startRun();
  return { conversation, fromIndex };
}

function userMessage(text: string) {
  return {
    role: 'user' as const,
    content: [{ cache_prompt: false, type: 'text' as const, text }],
    thinking_blocks: [],
  };
}

/**
 * `CancelTask`: pauses the conversation (a run stops between steps; the pause is logged at once, so the task is
 * `canceled` right away). A task waiting for a confirmation has its pending actions rejected first. A completed
 * or failed task is not cancelable (-32002); a canceled one is returned as it is.
 */
export async function cancelTask(conversation: ManagedConversation): Promise<TaskProjection> {
  const open = await conversation.open();
  const status = open.state.execution_status;
  if (status === 'finished' || status === 'error' || status === 'stuck') {
    throw new A2aRpcError(
      'taskNotCancelable',
      `Task '${conversation.id}' has ended (${status}) and cannot be canceled`,
    );
  }
  if (status === 'waiting_for_confirmation') await open.rejectPendingActions('The task was canceled');
  if (status !== 'paused') await conversation.pause();
  return taskOf(conversation);
}
