import type { z } from 'zod';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { listTasksParamsSchema } from './a2a-requests.js';
import { A2aRpcError } from './a2a-rpc-error.js';
import { taskOf } from './a2a-tasks.js';
import type { A2aTask } from './a2a-types.js';

const DEFAULT_PAGE_SIZE = 50;

/**
 * `ListTasks`: the server's conversations as tasks, in the order the server lists them, filtered by `contextId` (a task's context is
 * itself) and `status`, a page at a time (`pageToken` is the offset of the page). Damaged conversations are left
 * out. Each task is folded from its whole log, so a page costs one log read per task.
 */
export async function listTasks(
  manager: ConversationManager,
  params: z.infer<typeof listTasksParamsSchema>,
): Promise<{ tasks: A2aTask[]; nextPageToken: string; pageSize: number; totalSize: number }> {
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  const offset = params.pageToken === undefined || params.pageToken === '' ? 0 : Number(params.pageToken);
  if (!Number.isInteger(offset) || offset < 0) {
    throw new A2aRpcError(
      'invalidParams',
      `ListTasks: params.pageToken '${params.pageToken}' is not a token this server gave`,
    );
  }
  const filterState =
    params.status === undefined || params.status === 'TASK_STATE_UNSPECIFIED' ? undefined : params.status;
  const tasks: A2aTask[] = [];
  for (const conversation of await manager.list()) {
    if (params.contextId !== undefined && params.contextId !== '' && params.contextId !== conversation.id) continue;
    const opened = await conversation.open().then(
      () => true,
      () => false,
    );
    if (!opened) continue;
    const task = (await taskOf(conversation)).task({
      ...(params.historyLength === undefined ? {} : { historyLength: params.historyLength }),
      includeArtifacts: params.includeArtifacts === true,
    });
    if (filterState !== undefined && task.status.state !== filterState) continue;
    tasks.push(task);
  }
  const page = tasks.slice(offset, offset + pageSize);
  const next = offset + pageSize < tasks.length ? String(offset + pageSize) : '';
  return { tasks: page, nextPageToken: next, pageSize: page.length, totalSize: tasks.length };
}
