import { z } from 'zod';
import {
  createFile,
  type EditorOutcome,
  insertIntoFile,
  replaceInFile,
  viewPath,
} from './internal/file-editor-commands.js';
import { resolveWorkspacePath } from './internal/workspace-path.js';
import { defineTool, type Tool } from './tool.js';

export interface FileEditorToolOptions {
  /** `view` output longer than this is cut in the middle. Default 30000. */
  maxOutputChars?: number;
}

export const fileEditorParameters = z.object({
  command: z
    .enum(['view', 'create', 'str_replace', 'insert'])
    .describe('The command to run: `view`, `create`, `str_replace` or `insert`.'),
  path: z.string().describe('Path of the file or directory, relative to the workspace or absolute inside it.'),
  file_text: z.string().optional().describe('Required for `create`: the content of the file to create.'),
  old_str: z
    .string()
    .optional()
    .describe('Required for `str_replace`: the exact text to replace; it must occur exactly once in the file.'),
  new_str: z
    .string()
    .optional()
    .describe('For `str_replace`: the replacement text (default: empty). Required for `insert`: the text to insert.'),
  insert_line: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Required for `insert`: the text is inserted after this line (0 inserts at the top).'),
  view_range: z
    .array(z.number().int())
    .optional()
    .describe('Optional for `view` of a file: [start, end] lines, 1-based and inclusive; end -1 means to the end.'),
});

export type FileEditorAction = z.output<typeof fileEditorParameters>;

const missing = (name: string, command: string): EditorOutcome => ({
  content: `Parameter \`${name}\` is required for command: ${command}.`,
  is_error: true,
});

/** `file_editor`: view, create and edit files, confined to the workspace. */
export function createFileEditorTool(options: FileEditorToolOptions = {}): Tool<FileEditorAction> {
  const maxOutputChars = options.maxOutputChars ?? 30_000;
  return defineTool({
    name: 'file_editor',
    toolKind: 'FileEditorTool',
    description:
      'View, create and edit plain-text files in the workspace.\n' +
      '* `view` shows a file with line numbers (`cat -n`), or lists a directory two levels deep.\n' +
      '* `create` writes a new file; it refuses to overwrite an existing one.\n' +
      '* `str_replace` replaces `old_str` with `new_str`; `old_str` must match exactly one place, whitespace ' +
      'included, so include enough surrounding lines to make it unique.\n' +
      '* `insert` inserts `new_str` after line `insert_line`.\n' +
      '* Paths are relative to the workspace or absolute inside it; paths outside it are refused.',
    parameters: fileEditorParameters,
    annotations: {
      title: 'file_editor',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    async execute(action, context) {
      const resolved = await resolveWorkspacePath(context.workspace, action.path);
      const outcome = resolved.ok
        ? await runCommand(action, resolved.path, maxOutputChars)
        : { content: resolved.message, is_error: true };
      return { ...outcome, command: action.command, path: resolved.path };
    },
  });
}

function runCommand(action: FileEditorAction, path: string, maxOutputChars: number): Promise<EditorOutcome> {
  switch (action.command) {
    case 'view':
      return viewPath(path, action.view_range, maxOutputChars);
    case 'create':
      if (action.file_text === undefined) return Promise.resolve(missing('file_text', 'create'));
      return createFile(path, action.file_text);
    case 'str_replace':
      if (action.old_str === undefined) return Promise.resolve(missing('old_str', 'str_replace'));
      return replaceInFile(path, action.old_str, action.new_str ?? '');
    case 'insert':
      if (action.insert_line === undefined) return Promise.resolve(missing('insert_line', 'insert'));
      if (action.new_str === undefined) return Promise.resolve(missing('new_str', 'insert'));
      return insertIntoFile(path, action.insert_line, action.new_str);
  }
}
