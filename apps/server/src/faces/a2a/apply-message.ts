import { randomUUID } from 'node:crypto';
import { isMessageId } from '@x/agent';
import type { FileStore } from '@x/store';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import { assertMayDecide } from '../../conversations/approval-gate.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { clientText } from '../../internal/client-text.js';
import { conversationHex, hyphenate } from '../../internal/conversation-ids.js';
import type { A2aIncomingMessage } from './a2a-requests.js';
import { A2aRpcError } from './a2a-rpc-error.js';
import { findTask } from './a2a-tasks.js';
import { messageInput } from './message-input.js';
import { keepMessageParts } from './message-parts.js';

export interface AppliedMessage {
  conversation: ManagedConversation;
  /** The log index the run's events start at. */
  fromIndex: number;
}

const present = (id: string | undefined): string | undefined => (id === undefined || id === '' ? undefined : id);

/** Whether two ids name the same conversation (a UUID and its 32-hex spelling do). */
function sameId(left: string, right: string): boolean {
  const leftHex = conversationHex(left);
  return leftHex === undefined ? left === right : leftHex === conversationHex(right);
}

/**
 * The conversation a message continues. A task is a conversation and so is its context: `taskId` and `contextId`
 * name the same thing, must agree when both are given (§3.4.3), and either one continues it. Undefined when the
 * message names neither, or a `contextId` this server has no conversation for.
 */
async function continued(
  manager: ConversationManager,
  message: A2aIncomingMessage,
): Promise<ManagedConversation | undefined> {
  const taskId = present(message.taskId);
  const contextId = present(message.contextId);
  if (taskId !== undefined && contextId !== undefined && !sameId(taskId, contextId)) {
    throw new A2aRpcError(
      'invalidParams',
      `message.contextId '${clientText(contextId)}' is not the context of task '${clientText(taskId)}' (a task's context id is its own id)`,
    );
  }
  if (taskId !== undefined) return findTask(manager, taskId);
  if (contextId === undefined) return undefined;
  const conversation = await manager.get(contextId).catch(() => undefined);
  await conversation?.open();
  return conversation;
}

/**
 * The id of the conversation a message without a known context starts: a fresh one, or the client's own
 * `contextId`, kept as it is so later messages find it (§3.4.1). A client id this server cannot keep unchanged (not
 * a lowercase hyphenated UUID) is refused rather than replaced with another.
 */
function newConversationId(message: A2aIncomingMessage): string {
  const contextId = present(message.contextId);
  if (contextId === undefined) return randomUUID();
  const hex = conversationHex(contextId);
  if (hex === undefined || hyphenate(hex) !== contextId) {
    throw new A2aRpcError(
      'invalidParams',
      `message.contextId '${clientText(contextId)}' names no context of this server, and a new context id must be a lowercase hyphenated UUID`,
    );
  }
  return contextId;
}

/** What a message records: the text the agent reads, and the store its parts are kept in (message-parts.ts). */
interface MessageRecording {
  text: string;
  store: FileStore;
}

function userMessage(text: string) {
  return {
    role: 'user' as const,
    content: [{ cache_prompt: false, type: 'text' as const, text }],
    thinking_blocks: [],
  };
}

/**
 * Continues a conversation with the message: a confirmation answer or a new turn, then its run. A message is refused
 * while the task is working, and the run is claimed with that check (before any await): a message sent at the same
 * moment (through this face or another) finds the task working and is refused with nothing recorded, and no run
 * another face starts slips in between this message's recording and its run (whose 409 would come after the
 * confirmation answer or the turn was in the log: the model would read what its sender was told failed).
 */
async function continueWith(
  conversation: ManagedConversation,
  message: A2aIncomingMessage,
  input: MessageRecording,
): Promise<AppliedMessage> {
  if (conversation.isRunning) {
    throw new A2aRpcError(
      'unsupportedOperation',
      `Task '${conversation.id}' is working: wait for it to stop, or cancel it first`,
    );
  }
  const reservation = conversation.reserveRun();
  try {
    const fromIndex = await record(conversation, message, input);
    await reservation.start();
    return { conversation, fromIndex };
  } finally {
    reservation.release();
  }
}

/**
 * Records what the message brings to a task that is not working (its run claimed): the answer to the confirmation the
 * task waits for (the text is that answer then, not a new turn), or else a new user turn. The log index the run's
 * events start at.
 */
async function record(
  conversation: ManagedConversation,
  message: A2aIncomingMessage,
  { text, store }: MessageRecording,
): Promise<number> {
  const open = await conversation.open();
  if (open.state.execution_status !== 'waiting_for_confirmation') {
    if (text === '') throw new A2aRpcError('invalidParams', 'message.parts: the message has no text or data part');
    // An id the face knows, the client's or a fresh one: the message's parts are kept under it.
    const id = ownId(conversation, message).id ?? randomUUID();
    const recordedUpTo = await conversation.sendMessage(userMessage(text), { run: false, id });
    await keepMessageParts(store, conversation.hex, id, message.parts);
    return recordedUpTo;
  }
  const confirmation = message.metadata?.confirmation;
  // An answer to a confirmation is a decision: only a decider's (`approvalDeciders`) is taken, recorded as theirs.
  const principal = assertMayDecide();
  if (confirmation?.approved !== true) {
    // An empty reason says nothing: the answer's text (or the default) is the reason then, not a blank one.
    const reason = confirmation?.reason || (text === '' ? 'The user declined the action' : text);
    await open.rejectPendingActions(reason, principal === undefined ? {} : { principal });
  } else if (principal !== undefined) {
    // An explicit approval is the answerer's decision, recorded as theirs before the run executes the actions.
    const pending = await open.pendingActions();
    const approvals = pending.map((action) => ({ action_id: action.id, decision: { kind: 'approve' as const } }));
    await open.decide(approvals, { principal });
  }
  return conversation.log.length;
}

/**
 * The client's `messageId` as the id of the turn it records, when it can be an event's (`isMessageId`: a UUID always
 * can), so the task's history gives the message back under the id it was sent with; any other is replaced by a fresh
 * one. A `messageId` the task's log already holds is that message sent again: refused, not recorded twice.
 */
function ownId(conversation: ManagedConversation, message: A2aIncomingMessage): { id?: string } {
  if (!isMessageId(message.messageId)) return {};
  if (conversation.log.indexOf(message.messageId) !== -1) {
    throw new A2aRpcError(
      'invalidParams',
      `message.messageId '${clientText(message.messageId)}' is already in the history of task '${conversation.id}': a message is sent once`,
    );
  }
  return { id: message.messageId };
}

/**
 * Applies an incoming message and starts the run it asks for. A message naming a task (or its context) continues
 * that conversation: a task waiting for a confirmation takes `metadata.confirmation` (approve runs the pending
 * actions; a refusal, or a plain text answer, rejects them with that reason); otherwise the message is a new user
 * turn. A task that is working refuses new messages (cancel it or wait). Any other message creates a conversation
 * from `metadata.conversation` or else the face's default create body.
 */
export async function applyMessage(
  manager: ConversationManager,
  message: A2aIncomingMessage,
  defaultConversation: StartConversationRequest | undefined,
): Promise<AppliedMessage> {
  const existing = await continued(manager, message);
  const text = await messageInput(manager, message);
  if (existing !== undefined) return continueWith(existing, message, { text, store: manager.store });
  const create = message.metadata?.conversation ?? defaultConversation;
  if (create === undefined) {
    throw new A2aRpcError(
      'invalidParams',
      'This server has no default agent for A2A: pass the conversation create body (agent, llm, tools) as message.metadata.conversation',
    );
  }
  const conversationId = newConversationId(message);
  if (text === '') throw new A2aRpcError('invalidParams', 'message.parts: a new task needs a text or data part');
  const { conversation } = await manager.create({
    ...create,
    conversation_id: conversationId,
    initial_message: null,
  });
  // Created or not (another message with the same new context id got there first), the message is applied as any to
  // an existing task is: one at a time, so of two such messages one starts the task and the other finds it working.
  return continueWith(conversation, message, { text, store: manager.store });
}
