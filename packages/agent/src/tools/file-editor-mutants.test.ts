import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileEditorTool } from './file-editor-tool.js';

const editor = createFileEditorTool();
let root: string;
let workspace: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-editor-mutants-')));
  workspace = join(root, 'ws');
  await mkdir(workspace);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const edit = (args: Record<string, unknown>) => editor.execute({ ...args, kind: 'FileEditorAction' }, { workspace });
const text = (observation: Observation) =>
  observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
const read = (path: string) => readFile(join(workspace, path), 'utf8');
/** `cat -n` of lines `from`..`to` (1-based) of `content`. */
const catLines = (content: string, from: number, to: number) =>
  content
    .split('\n')
    .slice(from - 1, to)
    .map((line, i) => `${String(from + i).padStart(6)}\t${line}`);
const twentyLines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const edited = (shown: string[]) =>
  `The file ${workspace}/f.txt has been edited. Here's the result of running \`cat -n\` on a snippet of ${workspace}/f.txt:\n` +
  `${shown.join('\n')}\nReview the changes and make sure they are as expected. Edit the file again if necessary.`;
const inserted = (shown: string[]) =>
  `The file ${workspace}/f.txt has been edited. Here's the result of running \`cat -n\` on a snippet of the edited file:\n` +
  `${shown.join('\n')}\nReview the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.`;

describe('file_editor view ranges', () => {
  beforeEach(async () => {
    await writeFile(join(workspace, 'f.txt'), 'a\nb\nc\nd\n');
  });
  const view = async (range: unknown) => text(await edit({ command: 'view', path: 'f.txt', view_range: range }));
  const header = () => `Here's the result of running \`cat -n\` on ${workspace}/f.txt:\n`;

  it('shows exactly the lines asked for: one line, the first, the last, and an end past the file', async () => {
    expect(await view([2, 3])).toBe(`${header()}     2\tb\n     3\tc\n`);
    expect(await view([2, 2])).toBe(`${header()}     2\tb\n`);
    expect(await view([1, 1])).toBe(`${header()}     1\ta\n`);
    expect(await view([4, 4])).toBe(`${header()}     4\td\n`);
    expect(await view([3, 5])).toBe(
      `NOTE: We only show up to 4 since there're only 4 lines in this file.\n${header()}     3\tc\n     4\td\n`,
    );
  });

  it('names what is wrong with a start outside the file, an end before the start, or not two numbers', async () => {
    expect(await view([0, 2])).toBe(
      'Invalid `view_range` parameter: [0, 2]. Its first element `0` should be within the range of lines of the file: [1, 4].',
    );
    expect(await view([5, 6])).toBe(
      'Invalid `view_range` parameter: [5, 6]. Its first element `5` should be within the range of lines of the file: [1, 4].',
    );
    expect(await view([3, 1])).toBe(
      'Invalid `view_range` parameter: [3, 1]. Its second element `1` should be greater than or equal to the first element `3`.',
    );
    expect(await view([1, 2, 3])).toBe(
      'Invalid `view_range` parameter: [1, 2, 3]. It should be a list of two integers.',
    );
  });

  it('views an empty file whole as one empty numbered line, and refuses a range in it (it has no lines)', async () => {
    await writeFile(join(workspace, 'empty.txt'), '');
    expect(text(await edit({ command: 'view', path: 'empty.txt' }))).toBe(
      `Here's the result of running \`cat -n\` on ${workspace}/empty.txt:\n     1\t\n`,
    );
    const ranged = await edit({ command: 'view', path: 'empty.txt', view_range: [1, -1] });
    expect({ is_error: ranged.is_error, text: text(ranged) }).toEqual({
      is_error: true,
      text: 'Invalid `view_range` parameter: [1, -1]. Its first element `1` should be within the range of lines of the file: [1, 0].',
    });
  });

  it('refuses a view range on a directory', async () => {
    const observation = await edit({ command: 'view', path: '.', view_range: [1, 2] });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe(
      'Invalid `view_range` parameter: [1, 2]. The `view_range` parameter is not allowed when `path` points to a directory.',
    );
  });

  it('lists a directory in code point order, capitals first, as the reference sorts paths', async () => {
    await writeFile(join(workspace, 'zeta.txt'), '');
    await writeFile(join(workspace, 'Beta.txt'), '');
    await mkdir(join(workspace, 'mid'));
    await writeFile(join(workspace, 'alpha.txt'), '');
    const listing = text(await edit({ command: 'view', path: '.' }))
      .split('\n')
      .slice(1);
    expect(listing).toEqual(
      ['', 'Beta.txt', 'alpha.txt', 'f.txt', 'mid/', 'zeta.txt'].map((name) => `${workspace}/${name}`),
    );
  });
});

describe('file_editor edit snippets', () => {
  it('shows three lines before a replacement and four after it, in the middle of a long file', async () => {
    await writeFile(join(workspace, 'f.txt'), twentyLines);
    const observation = await edit({ command: 'str_replace', path: 'f.txt', old_str: 'line 10', new_str: 'ten\nTEN' });
    const after = await read('f.txt');
    expect(after).toBe(twentyLines.replace('line 10', 'ten\nTEN'));
    // The replacement is lines 10 and 11; the reference shows from its line minus three to four after its last,
    // with their line ends: the last one's gives an empty line 16.
    expect(text(observation)).toBe(edited([...catLines(after, 7, 15), '    16\t']));
  });

  it('shows four lines either side of an insertion in the middle of a long file, as the edited file', async () => {
    await writeFile(join(workspace, 'f.txt'), twentyLines);
    const observation = await edit({ command: 'insert', path: 'f.txt', insert_line: 10, new_str: 'new a\nnew b' });
    const after = await read('f.txt');
    expect(after).toBe(twentyLines.replace('line 10\n', 'line 10\nnew a\nnew b\n'));
    expect(text(observation)).toBe(inserted([...catLines(after, 7, 16), '    17\t']));
  });
});

describe('file_editor str_replace', () => {
  it('replaces text at the very start of a file', async () => {
    await writeFile(join(workspace, 'f.txt'), 'first line\nsecond\n');
    expect((await edit({ command: 'str_replace', path: 'f.txt', old_str: 'first', new_str: '1st' })).is_error).toBe(
      false,
    );
    expect(await read('f.txt')).toBe('1st line\nsecond\n');
  });

  it('refuses an empty old_str (found on every line) and an old_str equal to new_str, leaving the file alone', async () => {
    await writeFile(join(workspace, 'f.txt'), 'keep\n');
    const empty = await edit({ command: 'str_replace', path: 'f.txt', old_str: '', new_str: 'x' });
    expect({ is_error: empty.is_error, text: text(empty) }).toEqual({
      is_error: true,
      text: 'No replacement was performed. Multiple occurrences of old_str `` in lines [1, 2]. Please ensure it is unique.',
    });
    const same = await edit({ command: 'str_replace', path: 'f.txt', old_str: 'keep', new_str: 'keep' });
    expect({ is_error: same.is_error, text: text(same) }).toEqual({
      is_error: true,
      text: 'Invalid `new_str` parameter: keep. No replacement was performed. `new_str` and `old_str` must be different.',
    });
    expect(await read('f.txt')).toBe('keep\n');
  });

  it('names the lines where each occurrence starts, with a leading blank line and an old_str starting with a newline', async () => {
    await writeFile(join(workspace, 'f.txt'), '\nx = 1\nx = 1\n');
    expect(text(await edit({ command: 'str_replace', path: 'f.txt', old_str: 'x = 1', new_str: 'x = 2' }))).toContain(
      'in lines [2, 3]',
    );
    await writeFile(join(workspace, 'g.txt'), 'a\nfoo\nb\nfoo\n');
    expect(text(await edit({ command: 'str_replace', path: 'g.txt', old_str: '\nfoo', new_str: '\nbar' }))).toContain(
      'in lines [1, 3]',
    );
  });
});

describe('file_editor insert', () => {
  it('appends after the last line, keeping a file without a final newline without one', async () => {
    await writeFile(join(workspace, 'f.txt'), 'one\ntwo');
    expect((await edit({ command: 'insert', path: 'f.txt', insert_line: 2, new_str: 'three' })).is_error).toBe(false);
    expect(await read('f.txt')).toBe('one\ntwo\nthree');
  });

  it('inserts into an empty file as its only line', async () => {
    await writeFile(join(workspace, 'f.txt'), '');
    await edit({ command: 'insert', path: 'f.txt', insert_line: 0, new_str: 'only' });
    expect(await read('f.txt')).toBe('only\n');
  });
});

describe('file_editor paths that are not files', () => {
  it('refuses to edit a directory, saying only view takes one', async () => {
    await mkdir(join(workspace, 'dir'));
    for (const [command, extra] of [
      ['str_replace', { old_str: 'a', new_str: 'b' }],
      ['insert', { insert_line: 0, new_str: 'b' }],
      ['undo_edit', {}],
    ] as const) {
      const observation = await edit({ command, path: 'dir', ...extra });
      expect({ is_error: observation.is_error, text: text(observation) }).toEqual({
        is_error: true,
        text: `Invalid \`path\` parameter: ${workspace}/dir. The path ${workspace}/dir is a directory and only the \`view\` command can be used on directories.`,
      });
    }
  });

  it('refuses to edit the workspace directory itself', async () => {
    const observation = await edit({ command: 'str_replace', path: '.', old_str: 'a', new_str: 'b' });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe(
      `Invalid \`path\` parameter: ${workspace}. The path ${workspace} is a directory and only the \`view\` command can be used on directories.`,
    );
  });

  it('creates no directory when viewing or editing a file in one that does not exist', async () => {
    for (const args of [
      { command: 'view', path: 'nowhere/f.txt' },
      { command: 'str_replace', path: 'nowhere/f.txt', old_str: 'a', new_str: 'b' },
      { command: 'insert', path: 'nowhere/f.txt', insert_line: 0, new_str: 'b' },
    ]) {
      expect((await edit(args)).is_error).toBe(true);
    }
    await expect(stat(join(workspace, 'nowhere'))).rejects.toThrow(/ENOENT/);
  });

  it('leaves no file descriptor open after each command', async () => {
    await mkdir(join(workspace, 'sub'));
    const open = async () => (await readdir('/proc/self/fd')).length;
    const before = await open();
    await edit({ command: 'create', path: 'sub/f.txt', file_text: 'a\n' });
    await edit({ command: 'view', path: 'sub/f.txt' });
    await edit({ command: 'view', path: 'sub' });
    await edit({ command: 'view', path: '.' });
    await edit({ command: 'str_replace', path: 'sub/f.txt', old_str: 'a', new_str: 'b' });
    await edit({ command: 'insert', path: 'sub/f.txt', insert_line: 1, new_str: 'c' });
    await edit({ command: 'undo_edit', path: 'sub/f.txt' });
    expect(await open()).toBe(before);
    expect(await read('sub/f.txt')).toBe('b\n');
  });
});

describe('file_editor undo_edit that cannot run', () => {
  it('keeps the edit undoable when a directory stands at its path at the undo, and undoes it once the file is back', async () => {
    await edit({ command: 'create', path: 'f.txt', file_text: 'first\n' });
    await edit({ command: 'str_replace', path: 'f.txt', old_str: 'first', new_str: 'second' });
    await edit({ command: 'str_replace', path: 'f.txt', old_str: 'second', new_str: 'third' });
    await unlink(join(workspace, 'f.txt'));
    await mkdir(join(workspace, 'f.txt'));
    const refused = await edit({ command: 'undo_edit', path: 'f.txt' });
    expect(text(refused)).toContain('is a directory');
    await rm(join(workspace, 'f.txt'), { recursive: true });
    await writeFile(join(workspace, 'f.txt'), 'third\n');
    // The last edit is undone, not the one before it.
    const undone = await edit({ command: 'undo_edit', path: 'f.txt' });
    expect(undone.is_error).toBe(false);
    expect(await read('f.txt')).toBe('second\n');
  });
});
