import type { ToolEnvironment } from './environment/index.js';
import { createFileEditorTool, type FileEditorToolOptions } from './file-editor-tool.js';
import { finishTool } from './finish-tool.js';
import { createTaskTrackerTool } from './task-tracker-tool.js';
import { createTerminalTool, type TerminalToolOptions } from './terminal-tool.js';
import { thinkTool } from './think-tool.js';
import type { Tool } from './tool.js';

/** Names of the built-in tools, in the order `defaultTools` returns them. */
export const builtinToolNames = ['terminal', 'file_editor', 'task_tracker', 'finish', 'think'] as const;

export type BuiltinToolName = (typeof builtinToolNames)[number];

export interface DefaultToolsOptions {
  terminal?: TerminalToolOptions;
  fileEditor?: FileEditorToolOptions;
  /**
   * The environment of the processes tools start (the terminal's shell): by default a minimal one
   * (`defaultInheritedVariables`), never the host's credentials. `terminal.environment` takes precedence.
   */
  toolEnvironment?: ToolEnvironment;
}

/** `[terminal, file_editor, task_tracker, finish, think]`. */
export function defaultTools(options: DefaultToolsOptions = {}): Tool[] {
  const environment = options.terminal?.environment ?? options.toolEnvironment;
  return [
    createTerminalTool({ ...options.terminal, ...(environment === undefined ? {} : { environment }) }),
    createFileEditorTool(options.fileEditor),
    createTaskTrackerTool(),
    finishTool,
    thinkTool,
  ];
}
