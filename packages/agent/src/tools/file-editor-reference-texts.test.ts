import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileEditorTool } from './file-editor-tool.js';

/** What the reference's file_editor does that a model relies on: the texts it reads and the edits it gets. */
const editor = createFileEditorTool();
let root: string;
let workspace: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-editor-reference-')));
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

describe('file_editor str_replace, as the reference', () => {
  it('names each line holding an occurrence once, in order', async () => {
    await writeFile(join(workspace, 'f.txt'), 'ab ab\nc\nab\n');
    const observation = await edit({ command: 'str_replace', path: 'f.txt', old_str: 'ab', new_str: 'x' });
    expect({ is_error: observation.is_error, text: text(observation) }).toEqual({
      is_error: true,
      text: 'No replacement was performed. Multiple occurrences of old_str `ab` in lines [1, 3]. Please ensure it is unique.',
    });
  });

  it('retries an old_str found nowhere without its surrounding whitespace, keeping new_str as given', async () => {
    await writeFile(join(workspace, 'f.txt'), 'one\n    two = 2\nthree\n');
    const observation = await edit({
      command: 'str_replace',
      path: 'f.txt',
      old_str: '  two = 2  \n\n',
      new_str: 'TWO  ',
    });
    expect(observation.is_error).toBe(false);
    expect(await read('f.txt')).toBe('one\n    TWO  \nthree\n');
  });

  it('names the stripped old_str when it is not found either way', async () => {
    await writeFile(join(workspace, 'f.txt'), 'one\n');
    const observation = await edit({ command: 'str_replace', path: 'f.txt', old_str: ' zzz\n', new_str: 'y' });
    expect(text(observation)).toBe(
      `No replacement was performed, old_str \`zzz\` did not appear verbatim in ${workspace}/f.txt.`,
    );
  });

  it('does not strip an old_str that occurs as given', async () => {
    await writeFile(join(workspace, 'f.txt'), 'a b\nb\n');
    expect((await edit({ command: 'str_replace', path: 'f.txt', old_str: ' b', new_str: '_b' })).is_error).toBe(false);
    expect(await read('f.txt')).toBe('a_b\nb\n');
  });

  it('shows a replacement on line 2 from line 1, three lines before it never reaching past the start', async () => {
    await writeFile(join(workspace, 'f.txt'), 'a\nb\nc\n');
    const observation = await edit({ command: 'str_replace', path: 'f.txt', old_str: 'b', new_str: 'B' });
    // The snippet's last line end gives an empty line 4, as the reference numbers it.
    expect(text(observation)).toContain(':\n     1\ta\n     2\tB\n     3\tc\n     4\t\nReview');
  });
});

describe('file_editor str_replace without new_str, as the reference', () => {
  it('is refused, naming the parameter, and deletes nothing', async () => {
    await writeFile(join(workspace, 'f.txt'), 'keep this\n');
    const observation = await edit({ command: 'str_replace', path: 'f.txt', old_str: 'keep this' });
    expect({ is_error: observation.is_error, text: text(observation) }).toEqual({
      is_error: true,
      text: 'Parameter `new_str` is required for command: str_replace.',
    });
    expect(await read('f.txt')).toBe('keep this\n');
  });

  it('deletes old_str when new_str is given as empty', async () => {
    await writeFile(join(workspace, 'f.txt'), 'a\ndrop\nb\n');
    expect((await edit({ command: 'str_replace', path: 'f.txt', old_str: 'drop\n', new_str: '' })).is_error).toBe(
      false,
    );
    expect(await read('f.txt')).toBe('a\nb\n');
  });
});

describe('file_editor view, as the reference', () => {
  it('says when a view range ends past the file, and shows no note when it ends at the last line or at -1', async () => {
    await writeFile(join(workspace, 'f.txt'), 'a\nb\n');
    const note = "NOTE: We only show up to 2 since there're only 2 lines in this file.\n";
    expect(text(await edit({ command: 'view', path: 'f.txt', view_range: [1, 3] }))).toMatch(new RegExp(`^${note}`));
    for (const range of [
      [1, 2],
      [2, -1],
    ]) {
      expect(text(await edit({ command: 'view', path: 'f.txt', view_range: range }))).not.toContain('NOTE');
    }
  });
});
