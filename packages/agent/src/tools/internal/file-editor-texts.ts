/**
 * The texts the reference's file editor (`openhands/tools/file_editor/editor.py`) shows the model, built the way it
 * builds them: a snippet is the file's lines with their line ends, numbered after splitting on "\n", so a snippet
 * that ends with a newline shows one more, empty, numbered line (the reference's `_make_output`).
 */

/** The reference's `EditorToolParameterInvalidError` text. */
export function invalidParameterText(parameter: string, value: string, hint: string): string {
  return `Invalid \`${parameter}\` parameter: ${value}. ${hint}`;
}

/** An invalid `path`, as every path check of the reference's `validate_path` says it. */
export function invalidPathText(path: string, hint: string): string {
  return invalidParameterText('path', path, hint);
}

export const missingPathText = (path: string): string =>
  invalidPathText(path, `The path ${path} does not exist. Please provide a valid path.`);

export const existingPathText = (path: string): string =>
  invalidPathText(path, `File already exists at: ${path}. Cannot overwrite files using command \`create\`.`);

export const directoryPathText = (path: string): string =>
  invalidPathText(path, `The path ${path} is a directory and only the \`view\` command can be used on directories.`);

/** A list of integers as Python's `str(list)` writes it: `[1, 2]`. */
export const pythonIntList = (values: readonly number[]): string => `[${values.join(', ')}]`;

/** The file's lines, each with its "\n" (the last one may lack it): what iterating a Python text file yields. */
export function linesWithEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Lines `first`..`last` (1-based, both included) with their line ends: the reference's ranged `read_file`. */
export function lineRangeText(text: string, { first, last }: { first: number; last: number }): string {
  return linesWithEnds(text)
    .slice(Math.max(first, 1) - 1, Math.max(last, 0))
    .join('');
}

/** Python's `str.splitlines()`: every line boundary Python knows, no empty string after a final one. */
export function pythonSplitLines(text: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Python's line boundaries include these separators
  const lines = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** `cat -n` numbering of `content` split on "\n": a final "\n" gives a last, empty, numbered line. */
export function numberedLines(content: string, firstLineNumber: number): string {
  return content
    .split('\n')
    .map((line, index) => `${String(index + firstLineNumber).padStart(6)}\t${line}`)
    .join('\n');
}

export interface Snippet {
  /** The text shown, already cut to length. */
  content: string;
  /** What the header says it is: the file's path, `a snippet of <path>`, `a snippet of the edited file`. */
  description: string;
  /** The number of its first line. Default 1. */
  firstLine?: number;
}

/** The reference's `_make_output`: the snippet numbered from its first line, under a header naming it. */
export function catOutput({ content, description, firstLine = 1 }: Snippet): string {
  return `Here's the result of running \`cat -n\` on ${description}:\n${numberedLines(content, firstLine)}\n`;
}

/** The reference's `FileValidationError` text. */
export const fileValidationText = (path: string, reason: string): string =>
  `File validation failed for ${path}: ${reason}`;

/** Python's `f"{value:.1f}"` of `numerator / denominator` (both integers): rounded half to even, as Python does. */
function pythonOneDecimal(numerator: number, denominator: number): string {
  const tenths = BigInt(numerator) * 10n;
  const whole = BigInt(denominator);
  let rounded = tenths / whole;
  const twiceRest = (tenths % whole) * 2n;
  if (twiceRest > whole || (twiceRest === whole && rounded % 2n === 1n)) rounded += 1n;
  return `${rounded / 10n}.${rounded % 10n}`;
}

const mebibyte = 1024 * 1024;

export const tooLargeText = (path: string, size: number, maxBytes: number): string =>
  fileValidationText(
    path,
    `File is too large (${pythonOneDecimal(size, mebibyte)}MB). Maximum allowed size is ${Math.trunc(maxBytes / mebibyte)}MB.`,
  );

export const binaryFileText = (path: string): string =>
  fileValidationText(path, 'File appears to be binary and this file type cannot be read or edited by this tool.');

/** Python's whitespace (`str.isspace`): unlike JavaScript's `trim`, it has \x1c-\x1f and \x85, and not U+FEFF. */
const pythonSpace = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const pythonStripPattern = new RegExp(`^[${pythonSpace}]+|[${pythonSpace}]+$`, 'g');

/** Python's `str.strip()`. */
export const pythonStrip = (text: string): string => text.replace(pythonStripPattern, '');

/** x's own: an edit of a file that is not UTF-8 would write its undecodable bytes back as U+FFFD (they would be lost). */
export const notUtf8Text = (path: string): string =>
  fileValidationText(
    path,
    'File is not UTF-8 text and this tool cannot edit it without losing bytes. View it, or change it with the terminal.',
  );
