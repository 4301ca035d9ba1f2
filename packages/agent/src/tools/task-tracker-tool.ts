import { StoreError } from '@x/store';
import { z } from 'zod';
import { defineTool, type Tool, type ToolContext } from './tool.js';

export const taskItemSchema = z.object({
  title: z.string().describe('A brief title for the task.'),
  notes: z.string().default('').describe('Additional details or notes about the task.'),
  status: z
    .enum(['todo', 'in_progress', 'done'])
    .default('todo')
    .describe("The current status of the task. One of 'todo', 'in_progress', or 'done'."),
});

export type TaskItem = z.output<typeof taskItemSchema>;

export const taskTrackerParameters = z.object({
  command: z
    .enum(['view', 'plan'])
    .default('view')
    .describe(
      'The command to execute. `view` shows the current task list. `plan` creates or updates the task list based ' +
        'on provided requirements and progress. Always `view` the current list before making changes.',
    ),
  task_list: z.array(taskItemSchema).default([]).describe('The full task list. Required parameter of `plan` command.'),
});

export type TaskTrackerAction = z.output<typeof taskTrackerParameters>;

/** Where the reference keeps the list: `TASKS.json` in the conversation's directory. */
export const tasksFileName = 'TASKS.json';

const statusIcons: Readonly<Record<TaskItem['status'], string>> = { todo: '⏳', in_progress: '🔄', done: '✅' };

/** The reference's `_format_task_list`. */
export function formatTaskList(tasks: readonly TaskItem[]): string {
  if (tasks.length === 0) return 'No tasks in the list.';
  let content = '# Task List\n\n';
  tasks.forEach((task, index) => {
    content += `${index + 1}. ${statusIcons[task.status] ?? '⏳'} ${task.title}\n`;
    if (task.notes) content += `   ${task.notes}\n`;
    content += '\n';
  });
  return content.trim();
}

const description = `This tool provides structured task management capabilities for development workflows.
It enables systematic tracking of work items, progress monitoring, and efficient
organization of complex development activities.

The tool maintains visibility into project status and helps communicate
progress effectively to users.

## Application Guidelines

Utilize this tool in the following situations:

1. Multi-phase development work - When projects involve multiple sequential or
   parallel activities
2. Complex implementation tasks - Work requiring systematic planning and
   coordination across multiple components
3. Explicit user request for task organization - When users specifically ask
   for structured task management
4. Multiple concurrent requirements - When users present several work items
   that need coordination
5. Project initiation - Capture and organize user requirements at project start
6. Work commencement - Update task status to in_progress before beginning
   implementation. Maintain focus by limiting active work to one task
7. Task completion - Update status to done and identify any additional work
   that emerged during implementation

## Situations Where Tool Usage Is Unnecessary

Avoid using this tool when:

1. Single atomic tasks that require no decomposition
2. Trivial operations where tracking adds no organizational value
3. Simple activities completable in minimal steps
4. Pure information exchange or discussion

Note: For single straightforward tasks, proceed with direct implementation
rather than creating tracking overhead.

## Status Management and Workflow

1. **Status Values**: Track work using these states:
   - todo: Not yet initiated
   - in_progress: Currently active (maintain single focus)
   - done: Successfully completed

2. **Workflow Practices**:
   - Update status dynamically as work progresses
   - Mark completion immediately upon task finish
   - Limit active work to ONE task at any given time
   - Complete current activities before initiating new ones
   - Remove obsolete tasks from tracking entirely

3. **Completion Criteria**:
   - Mark tasks as done only when fully achieved
   - Keep status as in_progress if errors, blocks, or partial completion exist
   - Create new tasks for discovered issues or dependencies
   - Never mark done when:
       - Test suites are failing
       - Implementation remains incomplete
       - Unresolved errors persist
       - Required resources are unavailable

4. **Task Organization**:
   - Write precise, actionable descriptions
   - Decompose complex work into manageable units
   - Use descriptive, clear naming conventions

When uncertain, favor using this tool. Proactive task management demonstrates
systematic approach and ensures comprehensive requirement fulfillment.`;

/**
 * Writes TASKS.json. A store that refuses it does not fail the action, as in the reference (which logs it): the list
 * is kept for this process, and the answer says it was not saved (returned as a sentence to append, '' when saved).
 */
async function saveTasks(context: ToolContext, list: readonly TaskItem[]): Promise<string> {
  try {
    await context.conversationFiles?.write(tasksFileName, JSON.stringify(list, null, 2));
    return '';
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    return ` It could not be saved to ${tasksFileName} (${error.message}), so it lasts until the conversation closes.`;
  }
}

/** Reads TASKS.json; a missing or unreadable file is an empty list, as in the reference. */
async function loadTasks(context: ToolContext): Promise<TaskItem[]> {
  const text = await context.conversationFiles?.read(tasksFileName).catch(() => undefined);
  if (text === undefined) return [];
  try {
    const parsed = z.array(taskItemSchema).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/**
 * `task_tracker` (the reference's TaskTrackerTool): `plan` replaces the conversation's task list, `view` shows it.
 * The list is kept per conversation and saved as `TASKS.json` in the conversation's directory, so it survives
 * a restart; the observation carries the whole list (`task_list`).
 */
export function createTaskTrackerTool(): Tool<TaskTrackerAction> {
  const lists = new Map<string, TaskItem[]>();
  const listFor = async (context: ToolContext): Promise<TaskItem[]> => {
    const key = context.conversationId ?? context.workspace;
    let list = lists.get(key);
    if (list === undefined) {
      list = await loadTasks(context);
      lists.set(key, list);
    }
    return list;
  };
  return defineTool({
    name: 'task_tracker',
    toolKind: 'TaskTrackerTool',
    description,
    parameters: taskTrackerParameters,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async execute(action, context) {
      if (action.command === 'plan') {
        const list = action.task_list.map((task) => ({ ...task }));
        lists.set(context.conversationId ?? context.workspace, list);
        const unsaved = await saveTasks(context, list);
        return {
          content: `Task list has been updated with ${list.length} item(s).${unsaved}`,
          command: action.command,
          task_list: list,
        };
      }
      const list = await listFor(context);
      if (list.length === 0) {
        return { content: 'No task list found. Use the "plan" command to create one.', command: 'view', task_list: [] };
      }
      return { content: formatTaskList(list), command: 'view', task_list: list };
    },
    closeConversation(conversationId) {
      lists.delete(conversationId);
    },
  });
}
