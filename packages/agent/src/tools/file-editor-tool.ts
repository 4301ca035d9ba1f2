import { z } from 'zod';
import { WorkspacePathError } from '../paths/index.js';
import {
  checkPathForCommand,
  createFile,
  insertIntoFile,
  replaceInFile,
  undoEdit,
} from './internal/file-editor-commands.js';
import { type EditorOutcome, type EditorTarget, fail } from './internal/file-editor-outcome.js';
import { missingPathText } from './internal/file-editor-texts.js';
import { viewPath } from './internal/file-editor-view.js';
import { checkToolOptionLimits } from './internal/tool-option-limits.js';
import { resolveWorkspacePath } from './internal/workspace-path.js';
import { defineTool, type Tool, type ToolResult } from './tool.js';

export interface FileEditorToolOptions {
  /**
   * File text shown (a view, the snippet after an edit) or a directory listing longer than this many characters is
   * cut in the middle, with the reference's notice. Default 16000 (the reference's `MAX_RESPONSE_LEN_CHAR`).
   */
  maxOutputChars?: number;
  /** Files longer than this many bytes are refused (they would be held in memory whole). Default 10 MiB. */
  maxFileBytes?: number;
}

const commands = ['view', 'create', 'str_replace', 'insert', 'undo_edit'] as const;

export const fileEditorParameters = z.object({
  command: z
    .enum(commands)
    .describe('The commands to run. Allowed options are: `view`, `create`, `str_replace`, `insert`, `undo_edit`.'),
  path: z.string().describe('Path of the file or directory, relative to the workspace or absolute inside it.'),
  file_text: z
    .string()
    .nullish()
    .describe('Required parameter of `create` command, with the content of the file to be created.'),
  old_str: z
    .string()
    .nullish()
    .describe('Required parameter of `str_replace` command containing the string in `path` to replace.'),
  new_str: z
    .string()
    .nullish()
    .describe(
      'Optional parameter of `str_replace` command containing the new string (if not given, no string will be ' +
        'added). Required parameter of `insert` command containing the string to insert.',
    ),
  insert_line: z
    .number()
    .int()
    .nonnegative()
    .nullish()
    .describe(
      'Required parameter of `insert` command. The `new_str` will be inserted AFTER the line `insert_line` of `path`.',
    ),
  view_range: z
    .array(z.number().int())
    .nullish()
    .describe(
      'Optional parameter of `view` command when `path` points to a file. If none is given, the full file is ' +
        'shown. If provided, the file will be shown in the indicated line number range, e.g. [11, 12] will show ' +
        'lines 11 and 12. Indexing at 1 to start. Setting `[start_line, -1]` shows all lines from `start_line` to ' +
        'the end of the file.',
    ),
});

export type FileEditorAction = z.output<typeof fileEditorParameters>;

/** The reference keeps the last 10 contents of each file for `undo_edit`. */
const maxHistoryPerFile = 10;

const missing = (name: string, command: string): EditorOutcome =>
  fail(`Parameter \`${name}\` is required for command: ${command}.`);

/**
 * `file_editor`: view, create, edit and undo edits of files, confined to the workspace at use: every file is
 * reached through a directory descriptor verified to lie inside it, never through a link leading out, and
 * written by renaming a new file over it (a hard link to an outside file is replaced, not written through).
 */
export function createFileEditorTool(options: FileEditorToolOptions = {}): Tool<FileEditorAction> {
  checkToolOptionLimits('file_editor', options, { maxOutputChars: 'count', maxFileBytes: 'count' });
  const maxOutputChars = options.maxOutputChars ?? 16_000;
  const maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
  /** Per conversation, per real path: contents before each edit, newest last. */
  const histories = new Map<string, Map<string, string[]>>();
  const historyOf = (key: string) => {
    let history = histories.get(key);
    if (history === undefined) {
      history = new Map();
      histories.set(key, history);
    }
    return history;
  };
  const remember = (key: string, path: string, content: string) => {
    const history = historyOf(key);
    const entries = [...(history.get(path) ?? []), content].slice(-maxHistoryPerFile);
    history.set(path, entries);
  };

  const runCommand = (action: FileEditorAction, target: EditorTarget, key: string): Promise<EditorOutcome> => {
    switch (action.command) {
      case 'view':
        return viewPath(target, action.view_range ?? undefined);
      case 'create': {
        const fileText = action.file_text;
        if (fileText === undefined || fileText === null) return Promise.resolve(missing('file_text', 'create'));
        return createFile(target, fileText).then((outcome) => {
          // As in the reference, `create` records the created text.
          if (!outcome.is_error) remember(key, target.real, fileText);
          return outcome;
        });
      }
      case 'str_replace':
        if (action.old_str === undefined || action.old_str === null) {
          return Promise.resolve(missing('old_str', 'str_replace'));
        }
        // As the reference: a missing new_str is an error, not an empty one (which would delete old_str).
        if (action.new_str === undefined || action.new_str === null) {
          return Promise.resolve(missing('new_str', 'str_replace'));
        }
        return replaceInFile(target, action.old_str, action.new_str);
      case 'insert':
        if (action.insert_line === undefined || action.insert_line === null) {
          return Promise.resolve(missing('insert_line', 'insert'));
        }
        if (action.new_str === undefined || action.new_str === null) {
          return Promise.resolve(missing('new_str', 'insert'));
        }
        return insertIntoFile(target, action.insert_line, action.new_str);
      case 'undo_edit': {
        // Put back when the undo is refused (a directory, a missing file) or fails: the edit it could not undo stays
        // undoable. (Taken off before the undo runs, so two undos under way take two different entries.)
        const history = historyOf(key).get(target.real);
        const previous = history?.pop();
        const putBack = () => {
          if (history !== undefined && previous !== undefined) history.push(previous);
        };
        return undoEdit(target, previous).then(
          (outcome) => {
            if (outcome.is_error) putBack();
            return outcome;
          },
          (error: unknown) => {
            putBack();
            throw error;
          },
        );
      }
    }
  };

  return defineTool({
    name: 'file_editor',
    toolKind: 'FileEditorTool',
    description:
      'Custom editing tool for viewing, creating and editing files in plain-text format\n' +
      '* State is persistent across command calls and discussions with the user\n' +
      '* If `path` is a text file, `view` displays the result of applying `cat -n`. If `path` is a directory, ' +
      '`view` lists non-hidden files and directories up to 2 levels deep\n' +
      '* The `create` command cannot be used if the specified `path` already exists as a file\n' +
      '* If a `command` generates a long output, it will be truncated and marked with `<response clipped>`\n' +
      '* The `undo_edit` command will revert the last edit made to the file at `path`\n' +
      '* Paths are relative to the workspace or absolute inside it; paths outside it are refused.\n' +
      '\n' +
      'CRITICAL REQUIREMENTS FOR USING THIS TOOL:\n' +
      '\n' +
      '1. EXACT MATCHING: The `old_str` parameter must match EXACTLY one or more consecutive lines from the file, ' +
      'including all whitespace and indentation. The tool will fail if `old_str` matches multiple locations or ' +
      "doesn't match exactly with the file content.\n" +
      '\n' +
      '2. UNIQUENESS: The `old_str` must uniquely identify a single instance in the file:\n' +
      '   - Include sufficient context before and after the change point (3-5 lines recommended)\n' +
      '   - If not unique, the replacement will not be performed\n' +
      '\n' +
      '3. REPLACEMENT: The `new_str` parameter should contain the edited lines that replace the `old_str`. Both ' +
      'strings must be different.',
    parameters: fileEditorParameters,
    annotations: {
      title: 'file_editor',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    async execute(action, context): Promise<ToolResult> {
      const key = context.conversationId ?? context.workspace;
      const resolved = await resolveWorkspacePath(context.workspace, action.path);
      let outcome: EditorOutcome;
      if (!resolved.ok) {
        // `create` makes missing directories, so to it a file in the way is a path it cannot use, not a missing one.
        const missing = resolved.throughFile === true && action.command !== 'create';
        outcome = fail(missing ? missingPathText(resolved.path) : resolved.message);
      } else {
        const target: EditorTarget = {
          path: resolved.path,
          real: resolved.real,
          realRoot: resolved.realRoot,
          requested: action.path,
          maxFileBytes,
          maxOutputChars,
          secretValues: context.secretValues,
        };
        try {
          // As the reference, the path is checked for the command before the command's parameters are.
          outcome = (await checkPathForCommand(target, action.command)) ?? (await runCommand(action, target, key));
          const edited = action.command === 'str_replace' || action.command === 'insert';
          if (edited && !outcome.is_error && outcome.old_content !== undefined) {
            remember(key, target.real, outcome.old_content);
          }
        } catch (error) {
          if (!WorkspacePathError.isInstance(error)) throw error;
          outcome = fail(error.message);
        }
      }
      const { content, is_error, prev_exist, old_content, new_content } = outcome;
      // The reference's observation: errors carry no path; `prev_exist` is always written.
      return {
        content,
        is_error,
        command: action.command,
        ...(is_error ? {} : { path: resolved.path }),
        prev_exist: prev_exist ?? true,
        ...(old_content === undefined ? {} : { old_content }),
        ...(new_content === undefined ? {} : { new_content }),
      };
    },
    closeConversation(conversationId) {
      histories.delete(conversationId);
    },
  });
}
