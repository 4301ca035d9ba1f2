import type { z } from 'zod';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { clientText } from '../../internal/client-text.js';
import { conversationHex } from '../../internal/conversation-ids.js';
import type { listTasksParamsSchema } from './a2a-requests.js';
import { A2aRpcError } from './a2a-rpc-error.js';
import { taskOf } from './a2a-tasks.js';
import type { A2aTask } from './a2a-types.js';
import { type ListedTaskKeys, listedTaskKeys } from './listed-task-keys.js';

const DEFAULT_PAGE_SIZE = 50;

/** A task as listed: `artifacts` is left out entirely unless asked for (§3.1.4). */
type ListedTask = Omit<A2aTask, 'artifacts'> & { artifacts?: A2aTask['artifacts'] };

/** Where a page ends: the status timestamp and id of its last task, in the listing's order. */
interface Cursor {
  timestamp: string;
  id: string;
}

const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeCursor(token: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Cursor> | null;
    if (typeof value?.timestamp === 'string' && typeof value.id === 'string') {
      return { timestamp: value.timestamp, id: value.id };
    }
  } catch {
    // Not ours: refused below.
  }
  throw new A2aRpcError(
    'invalidParams',
    `ListTasks: params.pageToken '${clientText(token)}' is not a token this server gave`,
  );
}

/** The listing's order: most recently updated first (§3.1.4), ties by id so a cursor lands on one place. */
function compare(left: Cursor, right: Cursor): number {
  if (left.timestamp !== right.timestamp) return left.timestamp < right.timestamp ? 1 : -1;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}

const cursorOf = (keys: ListedTaskKeys): Cursor => ({ timestamp: keys.timestamp, id: keys.conversation.id });

/**
 * `ListTasks`: the server's conversations as tasks, most recently updated first, filtered by `contextId` (a task's
 * context is itself), `status` and `statusTimestampAfter`, a page at a time. The page token is a cursor (the last
 * task's timestamp and id), so tasks that change between pages do not shift later pages. Damaged conversations are
 * left out. Filtering and ordering read each conversation's listing keys (`listedTaskKeys`: stored files, no log), so
 * only the tasks of the page are opened and folded from their logs.
 */
export async function listTasks(
  manager: ConversationManager,
  params: z.infer<typeof listTasksParamsSchema>,
): Promise<{ tasks: ListedTask[]; nextPageToken: string; pageSize: number; totalSize: number }> {
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  const after = params.pageToken === undefined || params.pageToken === '' ? undefined : decodeCursor(params.pageToken);
  const filterState =
    params.status === undefined || params.status === 'TASK_STATE_UNSPECIFIED' ? undefined : params.status;
  const changedAfter =
    params.statusTimestampAfter === undefined ? undefined : new Date(params.statusTimestampAfter).toISOString();
  // Any spelling SendMessage takes for a context (32 hex, upper case) filters as its hyphenated id does.
  const context = params.contextId === undefined || params.contextId === '' ? undefined : params.contextId;
  const contextHex = context === undefined ? undefined : (conversationHex(context) ?? context);
  const listed: ListedTaskKeys[] = [];
  for (const conversation of await manager.list()) {
    if (contextHex !== undefined && contextHex !== conversationHex(conversation.id)) continue;
    const keys = await listedTaskKeys(manager, conversation);
    if (keys === undefined) continue;
    if (filterState !== undefined && keys.state !== filterState) continue;
    if (changedAfter !== undefined && !(keys.timestamp > changedAfter)) continue;
    listed.push(keys);
  }
  listed.sort((left, right) => compare(cursorOf(left), cursorOf(right)));
  const start = after === undefined ? 0 : listed.findIndex((keys) => compare(cursorOf(keys), after) > 0);
  const page = start < 0 ? [] : listed.slice(start, start + pageSize);
  const last = page.at(-1);
  const more = start >= 0 && start + pageSize < listed.length && last !== undefined;
  const includeArtifacts = params.includeArtifacts === true;
  const tasks: ListedTask[] = [];
  for (const { conversation } of page) {
    // Not open yet when its stored keys were read: one that cannot be opened after all is left out of the page.
    if (
      !(await conversation.open().then(
        () => true,
        () => false,
      ))
    )
      continue;
    const { artifacts, ...task } = (await taskOf(conversation, manager.store)).task({
      ...(params.historyLength === undefined ? {} : { historyLength: params.historyLength }),
      includeArtifacts,
    });
    tasks.push(includeArtifacts ? { ...task, artifacts } : task);
  }
  return {
    tasks,
    nextPageToken: more ? encodeCursor(cursorOf(last)) : '',
    pageSize: tasks.length,
    totalSize: listed.length,
  };
}
