import { describe, expect, it } from 'vitest';
import { createTaskTrackerTool, formatTaskList, tasksFileName } from './task-tracker-tool.js';
import type { ConversationFiles, ToolContext } from './tool.js';

function memoryFiles(): ConversationFiles & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return {
    files,
    read: async (name) => files.get(name),
    write: async (name, text) => {
      files.set(name, text);
    },
  };
}

const text = (observation: { content: { type: string }[] }) =>
  observation.content.map((part) => ('text' in part ? part.text : '')).join('');

describe('task_tracker', () => {
  it('plans, persists TASKS.json in the conversation directory, and views the list', async () => {
    const files = memoryFiles();
    const context: ToolContext = { workspace: '/tmp', conversationId: 'c1', conversationFiles: files };
    const tracker = createTaskTrackerTool();
    const empty = await tracker.execute({ kind: 'TaskTrackerAction' }, context);
    expect(empty).toEqual({
      content: [
        { cache_prompt: false, type: 'text', text: 'No task list found. Use the "plan" command to create one.' },
      ],
      is_error: false,
      command: 'view',
      task_list: [],
      kind: 'TaskTrackerObservation',
    });

    const planned = await tracker.execute(
      {
        command: 'plan',
        task_list: [{ title: 'Write tests', status: 'in_progress', notes: 'unit first' }, { title: 'Ship' }],
        kind: 'TaskTrackerAction',
      },
      context,
    );
    expect(text(planned)).toBe('Task list has been updated with 2 item(s).');
    const expectedList = [
      { title: 'Write tests', notes: 'unit first', status: 'in_progress' },
      { title: 'Ship', notes: '', status: 'todo' },
    ];
    expect(planned.task_list).toEqual(expectedList);
    expect(JSON.parse(files.files.get(tasksFileName)!)).toEqual(expectedList);

    // A new process (a fresh tool) reads the list back from TASKS.json.
    const viewed = await createTaskTrackerTool().execute({ command: 'view', kind: 'TaskTrackerAction' }, context);
    expect(text(viewed)).toBe('# Task List\n\n1. 🔄 Write tests\n   unit first\n\n2. ⏳ Ship');
    expect(viewed.task_list).toEqual(expectedList);
  });

  it('writes the action defaults the reference writes and rejects unknown statuses', async () => {
    const { parseToolCall } = await import('./parse-tool-call.js');
    const tracker = createTaskTrackerTool();
    const parsed = parseToolCall(
      { id: 'c', name: 'task_tracker', arguments: '{"command": "plan", "task_list": [{"title": "a"}]}' } as never,
      [tracker],
      { securityAnalyzerEnabled: false },
    );
    expect(parsed.ok && parsed.action).toEqual({
      command: 'plan',
      task_list: [{ title: 'a', notes: '', status: 'todo' }],
      kind: 'TaskTrackerAction',
    });
    const bad = parseToolCall(
      {
        id: 'c',
        name: 'task_tracker',
        arguments: '{"command": "plan", "task_list": [{"title": "a", "status": "later"}]}',
      } as never,
      [tracker],
      { securityAnalyzerEnabled: false },
    );
    expect(bad.ok).toBe(false);
  });

  it('keeps the list in memory for a conversation without a directory', async () => {
    const context: ToolContext = { workspace: '/tmp', conversationId: 'no-directory' };
    const tracker = createTaskTrackerTool();
    await tracker.execute({ command: 'plan', task_list: [{ title: 'Only task' }], kind: 'TaskTrackerAction' }, context);
    const viewed = await tracker.execute({ command: 'view', kind: 'TaskTrackerAction' }, context);
    expect(text(viewed)).toBe('# Task List\n\n1. ⏳ Only task');
    expect(viewed.task_list).toEqual([{ title: 'Only task', notes: '', status: 'todo' }]);
  });

  it('formats lists as the reference does, an empty one included', () => {
    expect(formatTaskList([])).toBe('No tasks in the list.');
    expect(formatTaskList([{ title: 'One', notes: '', status: 'done' }])).toBe('# Task List\n\n1. ✅ One');
  });

  it('carries the reference TaskTrackerTool annotations', () => {
    expect(createTaskTrackerTool().annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});

describe('task_tracker with a store that refuses TASKS.json', () => {
  it('answers the plan, keeps the list for this process, and says it was not saved', async () => {
    const { StoreBackendError } = await import('@x/store');
    const context: ToolContext = {
      workspace: '/tmp',
      conversationId: 'c-unsaved',
      conversationFiles: {
        read: async () => undefined,
        write: async (name) => {
          throw new StoreBackendError({ operation: 'write', path: name, location: '/data', detail: 'disk full' });
        },
      },
    };
    const tracker = createTaskTrackerTool();
    const planned = await tracker.execute(
      { command: 'plan', task_list: [{ title: 'Ship' }], kind: 'TaskTrackerAction' },
      context,
    );
    expect(planned.is_error).toBe(false);
    expect(text(planned)).toMatch(
      /^Task list has been updated with 1 item\(s\)\. It could not be saved to TASKS\.json \(.*disk full.*\), so it lasts until the conversation closes\.$/,
    );
    const viewed = await tracker.execute({ command: 'view', kind: 'TaskTrackerAction' }, context);
    expect(viewed.task_list).toEqual([{ title: 'Ship', notes: '', status: 'todo' }]);
  });

  it('still fails on a fault that is not the store refusing the write', async () => {
    const context: ToolContext = {
      workspace: '/tmp',
      conversationFiles: {
        read: async () => undefined,
        write: async () => {
          throw new TypeError('a bug in a custom ConversationFiles');
        },
      },
    };
    await expect(
      createTaskTrackerTool().execute({ command: 'plan', task_list: [], kind: 'TaskTrackerAction' }, context),
    ).rejects.toThrow('a bug in a custom ConversationFiles');
  });
});
