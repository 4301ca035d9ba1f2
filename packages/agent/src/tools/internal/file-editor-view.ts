import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { entryKind, openVerifiedDirectory, WorkspacePathError } from '../../paths/index.js';
import { type EditorOutcome, type EditorTarget, fail, inParent, ok, shownText } from './file-editor-outcome.js';
import { readEditorFile } from './file-editor-read.js';
import {
  catOutput,
  invalidParameterText,
  lineRangeText,
  linesWithEnds,
  missingPathText,
  pythonIntList,
  pythonSplitLines,
} from './file-editor-texts.js';

/** The reference's `DIRECTORY_CONTENT_TRUNCATED_NOTICE`, put where a long listing is cut. */
const directoryTruncatedNotice =
  '<response clipped><NOTE>Due to the max output limit, only part of this directory has been shown to you. You should use `ls -la` instead to view large directories incrementally.</NOTE>';

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

async function viewDirectory(target: EditorTarget, viewRange: readonly number[] | undefined) {
  // As the reference (`if view_range:`), an empty range counts as none.
  if (viewRange !== undefined && viewRange.length > 0) {
    return fail(
      invalidParameterText(
        'view_range',
        pythonIntList(viewRange),
        'The `view_range` parameter is not allowed when `path` points to a directory.',
      ),
    );
  }
  const dir = await openVerifiedDirectory(target.realRoot, target.real, target.requested);
  try {
    const { found, hiddenAtTop } = await listTwoLevels(dir.base, target.path, target.realRoot);
    const listing = [`${target.path}/`, ...found];
    let text = `Here's the files and directories up to 2 levels deep in ${target.path}, excluding hidden items:\n${listing.join('\n')}`;
    if (hiddenAtTop > 0) {
      text += `\n\n${hiddenAtTop} hidden files/directories in this directory are excluded. You can use 'ls -la ${target.path}' to see them.`;
    }
    return ok(shownText(text, target, directoryTruncatedNotice));
  } finally {
    await dir.close();
  }
}

/** The part of a file `view_range` shows, or the reference's error for the range. */
function rangeOfFile(
  text: string,
  viewRange: readonly number[],
): { body: string; first: number; note: string } | string {
  const lineCount = linesWithEnds(text).length;
  const [start, end] = viewRange;
  const invalid = (hint: string) => invalidParameterText('view_range', pythonIntList(viewRange), hint);
  if (viewRange.length !== 2 || start === undefined || end === undefined) {
    return invalid('It should be a list of two integers.');
  }
  if (start < 1 || start > lineCount) {
    return invalid(
      `Its first element \`${start}\` should be within the range of lines of the file: ${pythonIntList([1, lineCount])}.`,
    );
  }
  let last = end;
  let note = '';
  if (end === -1) {
    last = lineCount;
  } else if (end > lineCount) {
    // As the reference: an end past the file is clamped, and the view says so.
    note = `NOTE: We only show up to ${lineCount} since there're only ${lineCount} lines in this file.\n`;
    last = lineCount;
  }
  if (last < start) {
    return invalid(`Its second element \`${last}\` should be greater than or equal to the first element \`${start}\`.`);
  }
  // The reference joins the range's `splitlines()`: no empty line after it, and every Python line break splits.
  return { body: pythonSplitLines(lineRangeText(text, { first: start, last })).join('\n'), first: start, note };
}

export async function viewPath(target: EditorTarget, viewRange: readonly number[] | undefined): Promise<EditorOutcome> {
  if (target.real === target.realRoot) return viewDirectory(target, viewRange);
  return inParent(target, async (dir, name) => {
    const kind = await entryKind(dir, name);
    if (kind === 'missing') return fail(missingPathText(target.path));
    if (kind === 'directory') return viewDirectory(target, viewRange);
    const text = await readEditorFile(dir, name, target);
    if (typeof text !== 'string') return text;
    if (viewRange === undefined || viewRange.length === 0) {
      return ok(catOutput({ content: shownText(text, target), description: target.path }));
    }
    const range = rangeOfFile(text, viewRange);
    if (typeof range === 'string') return fail(range);
    const shown = catOutput({
      content: shownText(range.body, target),
      description: target.path,
      firstLine: range.first,
    });
    return ok(`${range.note}${shown}`);
  });
}
