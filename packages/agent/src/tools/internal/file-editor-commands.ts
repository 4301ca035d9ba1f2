import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { truncateMiddle } from './output-buffer.js';

export interface EditorOutcome {
  content: string;
  is_error: boolean;
}

/** Lines shown around an edit. */
const snippetContext = 4;

const fail = (content: string): EditorOutcome => ({ content, is_error: true });
const ok = (content: string): EditorOutcome => ({ content, is_error: false });

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

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function readTextFile(path: string, command: string): Promise<string | EditorOutcome> {
  const info = await statOrUndefined(path);
  if (info === undefined) return fail(`The path ${path} does not exist. Please provide a valid path.`);
  if (info.isDirectory()) return fail(`The path ${path} is a directory; \`${command}\` works on files only.`);
  return readFile(path, 'utf8');
}

function snippet(path: string, lines: readonly string[], fromLine: number, toLine: number): string {
  const start = Math.max(1, fromLine - snippetContext);
  const end = Math.min(lines.length, toLine + snippetContext);
  return (
    `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n` +
    `${numbered(lines.slice(start - 1, end), start)}\n` +
    'Review the changes and make sure they are as expected. Edit the file again if necessary.'
  );
}

/** Visible entries up to two levels below `root`, sorted, as absolute paths. */
async function listTwoLevels(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number) => {
    const entries = (await readdir(dir, { withFileTypes: true })).filter((entry) => !entry.name.startsWith('.'));
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      found.push(entry.isDirectory() ? `${full}/` : full);
      if (entry.isDirectory() && depth < 2) await walk(full, depth + 1);
    }
  };
  await walk(root, 1);
  return found;
}

export async function viewPath(
  path: string,
  viewRange: readonly number[] | undefined,
  maxChars: number,
): Promise<EditorOutcome> {
  const info = await statOrUndefined(path);
  if (info === undefined) return fail(`The path ${path} does not exist. Please provide a valid path.`);
  if (info.isDirectory()) {
    if (viewRange !== undefined) {
      return fail('The `view_range` parameter is not allowed when `path` points to a directory.');
    }
    const entries = await listTwoLevels(path);
    const listing = [`${path}/`, ...entries];
    const text = `Here's the files and directories up to 2 levels deep in ${path}, excluding hidden items:\n${listing.join('\n')}`;
    return ok(truncateMiddle(text, maxChars));
  }
  const lines = splitLines(await readFile(path, 'utf8'));
  let first = 1;
  let last = lines.length;
  if (viewRange !== undefined) {
    const [start, end] = viewRange;
    if (viewRange.length !== 2 || start === undefined || end === undefined) {
      return fail(`Invalid \`view_range\` parameter: [${viewRange.join(', ')}]. It should be a list of two integers.`);
    }
    if (start < 1 || start > Math.max(lines.length, 1)) {
      return fail(
        `Invalid \`view_range\` parameter: [${start}, ${end}]. Its first element \`${start}\` should be within the range of lines of the file: [1, ${lines.length}].`,
      );
    }
    if (end !== -1 && end < start) {
      return fail(
        `Invalid \`view_range\` parameter: [${start}, ${end}]. Its second element \`${end}\` should be -1 or not smaller than the first element \`${start}\`.`,
      );
    }
    first = start;
    last = end === -1 ? lines.length : Math.min(end, lines.length);
  }
  const body = numbered(lines.slice(first - 1, last), first);
  return ok(truncateMiddle(`Here's the result of running \`cat -n\` on ${path}:\n${body}\n`, maxChars));
}

export async function createFile(path: string, fileText: string): Promise<EditorOutcome> {
  if ((await statOrUndefined(path)) !== undefined) {
    return fail(`File already exists at: ${path}. Cannot overwrite files using command \`create\`.`);
  }
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, fileText, { encoding: 'utf8', flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return fail(`File already exists at: ${path}. Cannot overwrite files using command \`create\`.`);
    }
    throw error;
  }
  return ok(`File created successfully at: ${path}`);
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

export async function replaceInFile(path: string, oldStr: string, newStr: string): Promise<EditorOutcome> {
  const text = await readTextFile(path, 'str_replace');
  if (typeof text !== 'string') return text;
  if (oldStr === '') return fail('No replacement was performed: `old_str` is empty.');
  if (oldStr === newStr) return fail('No replacement was performed: `new_str` and `old_str` must be different.');
  const positions: number[] = [];
  for (let at = text.indexOf(oldStr); at !== -1; at = text.indexOf(oldStr, at + oldStr.length)) positions.push(at);
  if (positions.length === 0) {
    return fail(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`);
  }
  if (positions.length > 1) {
    const lines = positions.map((at) => lineOf(text, at));
    return fail(
      `No replacement was performed. Found ${positions.length} occurrences of old_str \`${oldStr}\` in ${path}, ` +
        `in lines [${lines.join(', ')}]. Please ensure it is unique, e.g. by including more surrounding lines.`,
    );
  }
  const at = positions[0]!;
  const updated = text.slice(0, at) + newStr + text.slice(at + oldStr.length);
  await writeFile(path, updated, 'utf8');
  const startLine = lineOf(updated, at);
  const endLine = startLine + newStr.split('\n').length - 1;
  return ok(snippet(path, splitLines(updated), startLine, endLine));
}

export async function insertIntoFile(path: string, insertLine: number, newStr: string): Promise<EditorOutcome> {
  const text = await readTextFile(path, 'insert');
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
  await writeFile(path, updatedLines.join('\n') + trailing, 'utf8');
  return ok(snippet(path, updatedLines, insertLine + 1, insertLine + inserted.length));
}
