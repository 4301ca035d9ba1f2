import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  entryKind,
  openOrCreateDirectory,
  openVerifiedDirectory,
  readRegularFile,
  replaceFileAtomically,
  type VerifiedDirectory,
  WorkspacePathError,
} from '../../paths/index.js';
import { maskSecrets } from '../secrets.js';
import { truncateMiddle } from './output-buffer.js';

/** What a command returns: the text and the reference's FileEditorObservation fields. */
export interface EditorOutcome {
  content: string;
  is_error: boolean;
  prev_exist?: boolean;
  old_content?: string;
  new_content?: string;
}

/** A path the editor may use: as shown to the model, its real location, and the workspace's real root. */
export interface EditorTarget {
  path: string;
  real: string;
  realRoot: string;
  requested: string;
  /** Files longer than this are refused (the editor holds a file in memory). */
  maxFileBytes: number;
  /** The conversation's secret values (`ToolContext.secretValues`): hidden before a long view is cut. */
  secretValues?: readonly string[] | undefined;
}

/**
 * A view as shown: masked, then cut in the middle when longer than `maxChars`. The conversation masks every
 * observation again, but a secret the cut splits would leave pieces no whole-value match finds.
 */
function shownView(text: string, target: EditorTarget, maxChars: number): string {
  const secrets = target.secretValues ?? [];
  return truncateMiddle(secrets.length === 0 ? text : maskSecrets(text, secrets), maxChars);
}

/** Lines shown after an edit (the reference's SNIPPET_CONTEXT_WINDOW; one fewer is shown before it). */
const snippetContext = 4;

export const fail = (content: string): EditorOutcome => ({ content, is_error: true });
const ok = (content: string, fields: Omit<EditorOutcome, 'content' | 'is_error'> = {}): EditorOutcome => ({
  content,
  is_error: false,
  prev_exist: true,
  ...fields,
});

/** `cat -n` formatting: right-aligned line numbers, a tab, the line. */
function numbered(lines: readonly string[], firstLineNumber: number): string {
  return lines.map((line, index) => `${String(index + firstLineNumber).padStart(6)}\t${line}`).join('\n');
}

/** A file's lines without the empty string a trailing newline leaves after `split`. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** The reference's `_make_output`. */
function catOutput(text: string, path: string, firstLine = 1): string {
  return `Here's the result of running \`cat -n\` on ${path}:\n${numbered(splitLines(text), firstLine)}\n`;
}

/**
 * Runs `use` with the target's parent directory opened and verified (created first with `create`, one component
 * at a time without following links).
 */
async function inParent<T>(
  target: EditorTarget,
  use: (dir: VerifiedDirectory, name: string) => Promise<T>,
  create = false,
): Promise<T> {
  if (target.real === target.realRoot) {
    throw new WorkspacePathError(target.requested, 'it is the workspace directory, not a file', {
      problem: 'directory',
    });
  }
  const dir = create
    ? await openOrCreateDirectory(target.realRoot, dirname(target.real), target.requested)
    : await openVerifiedDirectory(target.realRoot, dirname(target.real), target.requested);
  try {
    return await use(dir, basename(target.real));
  } finally {
    await dir.close();
  }
}

const missingPath = (path: string) => fail(`The path ${path} does not exist. Please provide a valid path.`);

/** Reads the file for an edit command, or the error outcome that stops it. */
async function readForEdit(
  dir: VerifiedDirectory,
  name: string,
  target: EditorTarget,
  command: string,
): Promise<string | EditorOutcome> {
  const kind = await entryKind(dir, name);
  if (kind === 'missing') return missingPath(target.path);
  if (kind === 'directory') return fail(`The path ${target.path} is a directory; \`${command}\` works on files only.`);
  return readRegularFile(dir, name, { shown: target.requested, maxBytes: target.maxFileBytes });
}

/**
 * The reference's message after an edit: lines `firstLine`..`lastLine` (1-based, clamped to the file) under the
 * header naming `shown`, then `review`.
 */
function editedMessage(
  path: string,
  shown: string,
  lines: readonly string[],
  range: { firstLine: number; lastLine: number },
  review: string,
): string {
  const start = Math.max(1, range.firstLine);
  const end = Math.min(lines.length, range.lastLine);
  return (
    `The file ${path} has been edited. Here's the result of running \`cat -n\` on ${shown}:\n` +
    `${numbered(lines.slice(start - 1, end), start)}\n${review}`
  );
}

/**
 * Names up to two levels under the verified directory `readBase`. A subdirectory is opened as a verified directory
 * too (no link followed, still inside `realRoot`), not read by its name: one swapped for a link between the two
 * reads would otherwise list a directory outside the workspace. One that cannot be opened so is listed, not entered.
 */
async function listTwoLevels(
  readBase: string,
  shownBase: string,
  realRoot: string,
): Promise<{ found: string[]; hiddenAtTop: number }> {
  const found: string[] = [];
  let hiddenAtTop = 0;
  const walk = async (readDir: string, shownDir: string, depth: number) => {
    const all = await readdir(readDir, { withFileTypes: true });
    const entries = all.filter((entry) => !entry.name.startsWith('.'));
    if (depth === 1) hiddenAtTop = all.length - entries.length;
    // The reference sorts by path: code point order, capitals first.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const shown = join(shownDir, entry.name);
      found.push(entry.isDirectory() ? `${shown}/` : shown);
      if (!entry.isDirectory() || depth >= 2) continue;
      const sub = await openVerifiedDirectory(realRoot, join(readDir, entry.name), shown).catch((error: unknown) => {
        if (WorkspacePathError.isInstance(error)) return undefined;
        throw error;
      });
      if (sub === undefined) continue;
      try {
        await walk(sub.base, shown, depth + 1);
      } finally {
        await sub.close();
      }
    }
  };
  await walk(readBase, shownBase, 1);
  return { found, hiddenAtTop };
}

async function viewDirectory(target: EditorTarget, viewRange: readonly number[] | undefined, maxChars: number) {
  if (viewRange !== undefined)
    return fail('The `view_range` parameter is not allowed when `path` points to a directory.');
  const dir = await openVerifiedDirectory(target.realRoot, target.real, target.requested);
  try {
    const { found, hiddenAtTop } = await listTwoLevels(dir.base, target.path, target.realRoot);
    const listing = [`${target.path}/`, ...found];
    let text = `Here's the files and directories up to 2 levels deep in ${target.path}, excluding hidden items:\n${listing.join('\n')}`;
    if (hiddenAtTop > 0) {
      text += `\n\n${hiddenAtTop} hidden files/directories in this directory are excluded. You can use 'ls -la ${target.path}' to see them.`;
    }
    return ok(shownView(text, target, maxChars));
  } finally {
    await dir.close();
  }
}

export async function viewPath(
  target: EditorTarget,
  viewRange: readonly number[] | undefined,
  maxChars: number,
): Promise<EditorOutcome> {
  if (target.real === target.realRoot) return viewDirectory(target, viewRange, maxChars);
  return inParent(target, async (dir, name) => {
    const kind = await entryKind(dir, name);
    if (kind === 'missing') return missingPath(target.path);
    if (kind === 'directory') return viewDirectory(target, viewRange, maxChars);
    const lines = splitLines(
      await readRegularFile(dir, name, { shown: target.requested, maxBytes: target.maxFileBytes }),
    );
    let first = 1;
    let last = lines.length;
    let note = '';
    if (viewRange !== undefined) {
      const [start, end] = viewRange;
      if (viewRange.length !== 2 || start === undefined || end === undefined) {
        return fail(
          `Invalid \`view_range\` parameter: [${viewRange.join(', ')}]. It should be a list of two integers.`,
        );
      }
      if (start < 1 || start > Math.max(lines.length, 1)) {
        return fail(
          `Invalid \`view_range\` parameter: [${start}, ${end}]. Its first element \`${start}\` should be within the range of lines of the file: [1, ${lines.length}].`,
        );
      }
      if (end !== -1 && end < start) {
        return fail(
          `Invalid \`view_range\` parameter: [${start}, ${end}]. Its second element \`${end}\` should be greater than or equal to the first element \`${start}\`.`,
        );
      }
      // As the reference: an end past the file is clamped, and the view says so.
      if (end > lines.length) {
        note = `NOTE: We only show up to ${lines.length} since there're only ${lines.length} lines in this file.\n`;
      }
      first = start;
      last = end === -1 ? lines.length : Math.min(end, lines.length);
    }
    const body = numbered(lines.slice(first - 1, last), first);
    return ok(
      shownView(`${note}Here's the result of running \`cat -n\` on ${target.path}:\n${body}\n`, target, maxChars),
    );
  });
}

export async function createFile(target: EditorTarget, fileText: string): Promise<EditorOutcome> {
  const exists = () => fail(`File already exists at: ${target.path}. Cannot overwrite files using command \`create\`.`);
  if (target.real === target.realRoot) return exists();
  return inParent(
    target,
    async (dir, name) => {
      if ((await entryKind(dir, name)) !== 'missing') return exists();
      await replaceFileAtomically(dir, name, fileText, { exclusive: true, shown: target.requested });
      return ok(`File created successfully at: ${target.path}`, { prev_exist: false, new_content: fileText });
    },
    true,
  );
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Where `search` starts in `text`, left to right without overlaps (as Python's `re.finditer`). */
function occurrences(text: string, search: string): number[] {
  const positions: number[] = [];
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) positions.push(at);
  return positions;
}

export function replaceInFile(target: EditorTarget, oldStr: string, newStr: string): Promise<EditorOutcome> {
  return inParent(target, async (dir, name) => {
    const text = await readForEdit(dir, name, target, 'str_replace');
    if (typeof text !== 'string') return text;
    if (oldStr === '') return fail('No replacement was performed: `old_str` is empty.');
    if (oldStr === newStr) {
      return fail(
        `Invalid \`new_str\` parameter: ${newStr}. No replacement was performed. \`new_str\` and \`old_str\` must be different.`,
      );
    }
    let search = oldStr;
    let positions = occurrences(text, search);
    // As the reference: an old_str found nowhere is tried again without its surrounding whitespace (new_str is kept
    // as it is: its whitespace is what the caller asked to write).
    if (positions.length === 0 && oldStr.trim() !== '') {
      search = oldStr.trim();
      positions = occurrences(text, search);
    }
    if (positions.length === 0) {
      return fail(`No replacement was performed, old_str \`${search}\` did not appear verbatim in ${target.path}.`);
    }
    if (positions.length > 1) {
      const lines = [...new Set(positions.map((at) => lineOf(text, at)))];
      return fail(
        `No replacement was performed. Multiple occurrences of old_str \`${search}\` in lines [${lines.join(', ')}]. ` +
          'Please ensure it is unique.',
      );
    }
    const at = positions[0]!;
    const updated = text.slice(0, at) + newStr + text.slice(at + search.length);
    await replaceFileAtomically(dir, name, updated, { exclusive: false, shown: target.requested });
    const replacementLine = lineOf(updated, at);
    const newlines = newStr.split('\n').length - 1;
    const range = {
      firstLine: replacementLine - snippetContext + 1,
      lastLine: replacementLine + snippetContext + newlines,
    };
    return ok(
      editedMessage(
        target.path,
        `a snippet of ${target.path}`,
        splitLines(updated),
        range,
        'Review the changes and make sure they are as expected. Edit the file again if necessary.',
      ),
      { old_content: text, new_content: updated },
    );
  });
}

export function insertIntoFile(target: EditorTarget, insertLine: number, newStr: string): Promise<EditorOutcome> {
  return inParent(target, async (dir, name) => {
    const text = await readForEdit(dir, name, target, 'insert');
    if (typeof text !== 'string') return text;
    const lines = splitLines(text);
    if (insertLine < 0 || insertLine > lines.length) {
      return fail(
        `Invalid \`insert_line\` parameter: ${insertLine}. It should be within the range of allowed values: [0, ${lines.length}].`,
      );
    }
    const inserted = splitLines(newStr.endsWith('\n') ? newStr : `${newStr}\n`);
    const updatedLines = [...lines.slice(0, insertLine), ...inserted, ...lines.slice(insertLine)];
    // Keep the file's trailing-newline convention (an empty file gets one).
    const trailing = text === '' || text.endsWith('\n') ? '\n' : '';
    const updated = updatedLines.join('\n') + trailing;
    await replaceFileAtomically(dir, name, updated, { exclusive: false, shown: target.requested });
    const range = {
      firstLine: insertLine - snippetContext + 1,
      lastLine: insertLine + snippetContext + inserted.length,
    };
    return ok(
      editedMessage(
        target.path,
        'a snippet of the edited file',
        updatedLines,
        range,
        'Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). ' +
          'Edit the file again if necessary.',
      ),
      { old_content: text, new_content: updated },
    );
  });
}

/** `undo_edit`: writes back `previous` (the content before the last edit), as the reference does. */
export function undoEdit(target: EditorTarget, previous: string | undefined): Promise<EditorOutcome> {
  return inParent(target, async (dir, name) => {
    const current = await readForEdit(dir, name, target, 'undo_edit');
    if (typeof current !== 'string') return current;
    if (previous === undefined) return fail(`No edit history found for ${target.path}.`);
    await replaceFileAtomically(dir, name, previous, { exclusive: false, shown: target.requested });
    return ok(`Last edit to ${target.path} undone successfully. ${catOutput(previous, target.path)}`, {
      old_content: current,
      new_content: previous,
    });
  });
}
