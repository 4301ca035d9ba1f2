import { createFileEditorTool, type FileEditorToolOptions } from './file-editor-tool.js';
import { finishTool } from './finish-tool.js';
import { createTerminalTool, type TerminalToolOptions } from './terminal-tool.js';
import { thinkTool } from './think-tool.js';
import type { Tool } from './tool.js';

/** Names of the built-in tools, in the order `defaultTools` returns them. */
export const builtinToolNames = ['terminal', 'file_editor', 'finish', 'think'] as const;

export type BuiltinToolName = (typeof builtinToolNames)[number];

export interface DefaultToolsOptions {
  terminal?: TerminalToolOptions;
  fileEditor?: FileEditorToolOptions;
}

/** `[terminal, file_editor, finish, think]`. */
export function defaultTools(options: DefaultToolsOptions = {}): Tool[] {
  return [createTerminalTool(options.terminal), createFileEditorTool(options.fileEditor), finishTool, thinkTool];
}
