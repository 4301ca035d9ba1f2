import { entryKind, replaceFileAtomically, type VerifiedDirectory, WorkspacePathError } from '../../paths/index.js';
import { type EditorOutcome, type EditorTarget, fail, inParent, ok, shownText } from './file-editor-outcome.js';
import { readEditorFile } from './file-editor-read.js';
import {
  catOutput,
  directoryPathText,
  existingPathText,
  invalidParameterText,
  lineRangeText,
  missingPathText,
  pythonIntList,
  pythonStrip,
} from './file-editor-texts.js';

/** Lines shown after an edit (the reference's SNIPPET_CONTEXT_WINDOW; one fewer is shown before it). */
const snippetContext = 4;

/**
 * The reference's `validate_path`, run before the command's own parameters are checked (so its error comes first):
 * `create` needs a new path, every other command an existing one, and only `view` takes a directory. A missing
 * parent directory is a missing path, except for `create`, which makes it.
 */
export async function checkPathForCommand(target: EditorTarget, command: string): Promise<EditorOutcome | undefined> {
  const refuse = (kind: 'missing' | 'file' | 'directory' | { other: string }) => {
    if (command === 'create') return kind === 'missing' ? undefined : fail(existingPathText(target.path));
    if (kind === 'missing') return fail(missingPathText(target.path));
    if (kind === 'directory' && command !== 'view') return fail(directoryPathText(target.path));
    return undefined;
  };
  if (target.real === target.realRoot) return refuse('directory');
  try {
    return await inParent(target, async (dir, name) => refuse(await entryKind(dir, name)));
  } catch (error) {
    if (!WorkspacePathError.isInstance(error) || error.problem !== 'missing') throw error;
    return refuse('missing');
  }
}

/** Reads the file for an edit command, or the error outcome that stops it. */
async function readForEdit(
  dir: VerifiedDirectory,
  name: string,
  target: EditorTarget,
): Promise<string | EditorOutcome> {
  const kind = await entryKind(dir, name);
  if (kind === 'missing') return fail(missingPathText(target.path));
  if (kind === 'directory') return fail(directoryPathText(target.path));
  return readEditorFile(dir, name, target, { forEdit: true });
}

/**
 * The reference's message after an edit: lines `firstLine`..`lastLine` (1-based, with their line ends) of `text`
 * under the header naming `shown`, then `review`.
 */
function editedMessage(
  target: EditorTarget,
  snippet: { text: string; shown: string; firstLine: number; lastLine: number },
  review: string,
): string {
  const firstLine = Math.max(1, snippet.firstLine);
  const content = shownText(lineRangeText(snippet.text, { first: firstLine, last: snippet.lastLine }), target);
  return `The file ${target.path} has been edited. ${catOutput({ content, description: snippet.shown, firstLine })}${review}`;
}

export async function createFile(target: EditorTarget, fileText: string): Promise<EditorOutcome> {
  const exists = () => fail(existingPathText(target.path));
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

/** The line (1-based) of each position in `positions` (ascending) in `text`, each line named once. */
function linesOf(text: string, positions: readonly number[]): number[] {
  const lines = new Set<number>();
  let line = 1;
  let lineEnd = text.indexOf('\n');
  for (const at of positions) {
    while (lineEnd !== -1 && lineEnd < at) {
      line += 1;
      lineEnd = text.indexOf('\n', lineEnd + 1);
    }
    lines.add(line);
  }
  return [...lines];
}

/** Where `search` starts in `text`, left to right without overlaps (as Python's `re.finditer`). */
function occurrences(text: string, search: string): number[] {
  if (search === '') {
    // Python finds an empty old_str at every position: once in an empty file (which it then fills), on every line
    // otherwise. The start of each line and the end of the text stand for all of them.
    const positions = [0];
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) positions.push(at + 1);
    if (positions.at(-1) !== text.length) positions.push(text.length);
    return positions;
  }
  const positions: number[] = [];
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) positions.push(at);
  return positions;
}

export function replaceInFile(target: EditorTarget, oldStr: string, newStr: string): Promise<EditorOutcome> {
  // As the reference, checked before the file is read.
  if (oldStr === newStr) {
    const hint = 'No replacement was performed. `new_str` and `old_str` must be different.';
    return Promise.resolve(fail(invalidParameterText('new_str', newStr, hint)));
  }
  return inParent(target, async (dir, name) => {
    const text = await readForEdit(dir, name, target);
    if (typeof text !== 'string') return text;
    let search = oldStr;
    let positions = occurrences(text, search);
    // As the reference: an old_str found nowhere is tried again without its surrounding whitespace (new_str is kept
    // as it is: its whitespace is what the caller asked to write).
    if (positions.length === 0) {
      search = pythonStrip(oldStr);
      positions = occurrences(text, search);
    }
    if (positions.length === 0) {
      return fail(`No replacement was performed, old_str \`${search}\` did not appear verbatim in ${target.path}.`);
    }
    if (positions.length > 1) {
      return fail(
        `No replacement was performed. Multiple occurrences of old_str \`${search}\` in lines ${pythonIntList(linesOf(text, positions))}. ` +
          'Please ensure it is unique.',
      );
    }
    const at = positions[0]!;
    const updated = text.slice(0, at) + newStr + text.slice(at + search.length);
    await replaceFileAtomically(dir, name, updated, { exclusive: false, shown: target.requested });
    const [replacementLine = 1] = linesOf(text, [at]);
    const newlines = newStr.split('\n').length - 1;
    const snippet = {
      text: updated,
      shown: `a snippet of ${target.path}`,
      firstLine: replacementLine - snippetContext + 1,
      lastLine: replacementLine + snippetContext + newlines,
    };
    return ok(
      editedMessage(
        target,
        snippet,
        'Review the changes and make sure they are as expected. Edit the file again if necessary.',
      ),
      { old_content: text, new_content: updated },
    );
  });
}

/** A file's lines without the empty string a trailing newline leaves after `split`. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

export function insertIntoFile(target: EditorTarget, insertLine: number, newStr: string): Promise<EditorOutcome> {
  return inParent(target, async (dir, name) => {
    const text = await readForEdit(dir, name, target);
    if (typeof text !== 'string') return text;
    const lines = splitLines(text);
    if (insertLine < 0 || insertLine > lines.length) {
      const hint = `It should be within the range of allowed values: ${pythonIntList([0, lines.length])}`;
      return fail(invalidParameterText('insert_line', String(insertLine), hint));
    }
    const inserted = splitLines(newStr.endsWith('\n') ? newStr : `${newStr}\n`);
    const updatedLines = [...lines.slice(0, insertLine), ...inserted, ...lines.slice(insertLine)];
    // Keep the file's trailing-newline convention (an empty file gets one).
    const trailing = text === '' || text.endsWith('\n') ? '\n' : '';
    const updated = updatedLines.join('\n') + trailing;
    await replaceFileAtomically(dir, name, updated, { exclusive: false, shown: target.requested });
    const snippet = {
      text: updated,
      shown: 'a snippet of the edited file',
      firstLine: insertLine - snippetContext + 1,
      lastLine: insertLine + snippetContext + inserted.length,
    };
    return ok(
      editedMessage(
        target,
        snippet,
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
    const current = await readForEdit(dir, name, target);
    if (typeof current !== 'string') return current;
    if (previous === undefined) return fail(`No edit history found for ${target.path}.`);
    await replaceFileAtomically(dir, name, previous, { exclusive: false, shown: target.requested });
    const shown = catOutput({ content: shownText(previous, target), description: target.path });
    return ok(`Last edit to ${target.path} undone successfully. ${shown}`, {
      old_content: current,
      new_content: previous,
    });
  });
}
