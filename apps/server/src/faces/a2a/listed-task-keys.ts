import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import type { A2aTaskState } from './a2a-types.js';
import { taskStateOf, utcTimestamp } from './task-projection.js';

/** What `ListTasks` filters and orders a task by: its state and its status timestamp ('' when it has none). */
export interface ListedTaskKeys {
  conversation: ManagedConversation;
  state: A2aTaskState;
  timestamp: string;
}

/** The status timestamp `GetTask` gives an open conversation's task: that of its latest event that has one. */
async function liveTimestamp(conversation: ManagedConversation): Promise<string> {
  const log = conversation.log;
  for (let end = log.length; end > 0; end -= 1) {
    const [event] = await log.range(end - 1, end);
    const timestamp = event === undefined ? undefined : utcTimestamp(event.timestamp);
    if (timestamp !== undefined) return timestamp;
  }
  return '';
}

/** The status its checkpoint (base_state.json) records; undefined when that file does not read as one. */
async function checkpointStatus(manager: ConversationManager, conversation: ManagedConversation): Promise<unknown> {
  try {
    const state = JSON.parse(await manager.store.read(`${conversation.hex}/base_state.json`)) as unknown;
    return (state as { execution_status?: unknown } | null)?.execution_status;
  } catch {
    return undefined;
  }
}

/**
 * The keys of a conversation that is not open, from what the server stored for it (meta.json's status and last event
 * time, the checkpoint's status), without reading its log. Undefined when they cannot be trusted to be what opening it
 * would give: a meta.json written before it kept the last event time, a status the checkpoint does not share (a write
 * cut short), or `running` (a run a crash cut short: opening recovers it).
 */
async function storedKeys(
  manager: ConversationManager,
  conversation: ManagedConversation,
): Promise<ListedTaskKeys | undefined> {
  const { execution_status: status, last_event_at: lastEventAt } = conversation.meta;
  const timestamp = lastEventAt === undefined ? undefined : utcTimestamp(lastEventAt);
  if (timestamp === undefined || status === 'running') return undefined;
  if ((await checkpointStatus(manager, conversation)) !== status) return undefined;
  return { conversation, state: taskStateOf(status), timestamp };
}

/**
 * A conversation's listing keys, as its task's projection from the whole log has them, at the cost of a few stored
 * files: an open conversation gives its live status and its log's last event; one that is not open stays closed
 * where its stored record can be trusted, and is opened otherwise. Undefined for one that cannot be opened (damaged).
 */
export async function listedTaskKeys(
  manager: ConversationManager,
  conversation: ManagedConversation,
): Promise<ListedTaskKeys | undefined> {
  if (!conversation.isOpen) {
    const stored = await storedKeys(manager, conversation);
    if (stored !== undefined) return stored;
  }
  const open = await conversation.open().catch(() => undefined);
  if (open === undefined) return undefined;
  return {
    conversation,
    state: taskStateOf(open.state.execution_status),
    timestamp: await liveTimestamp(conversation),
  };
}
