import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileEditorTool } from './file-editor-tool.js';

const editor = createFileEditorTool();
let root: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-editor-')));
  workspace = join(root, 'ws');
  outside = join(root, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'top secret\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const edit = (args: Record<string, unknown>) => editor.execute({ ...args, kind: 'FileEditorAction' }, { workspace });

const text = (observation: Observation) =>
  observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('file_editor create and view', () => {
  it('creates a file (with parent directories) and views it with line numbers', async () => {
    const created = await edit({ command: 'create', path: 'src/a.txt', file_text: 'one\ntwo\nthree\n' });
    expect(created).toEqual({
      content: [{ cache_prompt: false, type: 'text', text: `File created successfully at: ${workspace}/src/a.txt` }],
      is_error: false,
      command: 'create',
      path: `${workspace}/src/a.txt`,
      kind: 'FileEditorObservation',
    });
    expect(await readFile(join(workspace, 'src/a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    const viewed = await edit({ command: 'view', path: `${workspace}/src/a.txt` });
    expect(text(viewed)).toBe(
      `Here's the result of running \`cat -n\` on ${workspace}/src/a.txt:\n     1\tone\n     2\ttwo\n     3\tthree\n`,
    );
  });

  it('views a line range, -1 meaning to the end, and rejects a bad range', async () => {
    await writeFile(join(workspace, 'f.txt'), 'a\nb\nc\nd\n');
    expect(text(await edit({ command: 'view', path: 'f.txt', view_range: [2, 3] }))).toContain(
      '     2\tb\n     3\tc\n',
    );
    expect(text(await edit({ command: 'view', path: 'f.txt', view_range: [3, -1] }))).toContain(
      '     3\tc\n     4\td\n',
    );
    const bad = await edit({ command: 'view', path: 'f.txt', view_range: [9, 10] });
    expect(bad.is_error).toBe(true);
    expect(text(bad)).toContain('Invalid `view_range` parameter: [9, 10]');
  });

  it('lists a directory two levels deep without hidden entries', async () => {
    await mkdir(join(workspace, 'a/b/c'), { recursive: true });
    await writeFile(join(workspace, 'a/file.txt'), '');
    await writeFile(join(workspace, 'a/b/c/deep.txt'), '');
    await writeFile(join(workspace, '.hidden'), '');
    const listing = text(await edit({ command: 'view', path: '.' }));
    expect(listing).toBe(
      `Here's the files and directories up to 2 levels deep in ${workspace}, excluding hidden items:\n` +
        `${workspace}/\n${workspace}/a/\n${workspace}/a/b/\n${workspace}/a/file.txt`,
    );
  });

  it('refuses to overwrite with create', async () => {
    await writeFile(join(workspace, 'keep.txt'), 'original');
    const observation = await edit({ command: 'create', path: 'keep.txt', file_text: 'new' });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe(
      `File already exists at: ${workspace}/keep.txt. Cannot overwrite files using command \`create\`.`,
    );
    expect(await readFile(join(workspace, 'keep.txt'), 'utf8')).toBe('original');
  });

  it('reports a missing path and a missing required parameter', async () => {
    const missing = await edit({ command: 'view', path: 'nope.txt' });
    expect(missing.is_error).toBe(true);
    expect(text(missing)).toBe(`The path ${workspace}/nope.txt does not exist. Please provide a valid path.`);
    expect(text(await edit({ command: 'create', path: 'x.txt' }))).toBe(
      'Parameter `file_text` is required for command: create.',
    );
  });
});

describe('file_editor str_replace and insert', () => {
  it('replaces exactly one occurrence and shows a snippet', async () => {
    await writeFile(join(workspace, 'code.py'), 'def f():\n    return 1\n');
    const observation = await edit({
      command: 'str_replace',
      path: 'code.py',
      old_str: 'return 1',
      new_str: 'return 2',
    });
    expect(observation.is_error).toBe(false);
    expect(text(observation)).toContain('     2\t    return 2');
    expect(await readFile(join(workspace, 'code.py'), 'utf8')).toBe('def f():\n    return 2\n');
  });

  it('names how many occurrences were found, and where, when old_str is not unique', async () => {
    await writeFile(join(workspace, 'dup.txt'), 'x = 1\ny = 2\nx = 1\n');
    const observation = await edit({ command: 'str_replace', path: 'dup.txt', old_str: 'x = 1', new_str: 'x = 3' });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toContain('Found 2 occurrences of old_str `x = 1`');
    expect(text(observation)).toContain('in lines [1, 3]');
    expect(await readFile(join(workspace, 'dup.txt'), 'utf8')).toBe('x = 1\ny = 2\nx = 1\n');
  });

  it('reports an old_str that does not occur', async () => {
    await writeFile(join(workspace, 'a.txt'), 'abc\n');
    const observation = await edit({ command: 'str_replace', path: 'a.txt', old_str: 'zzz', new_str: 'y' });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe(
      `No replacement was performed, old_str \`zzz\` did not appear verbatim in ${workspace}/a.txt.`,
    );
  });

  it('inserts after a line, at the top with 0, and rejects a line past the end', async () => {
    await writeFile(join(workspace, 'list.txt'), 'one\ntwo\n');
    expect(
      (await edit({ command: 'insert', path: 'list.txt', insert_line: 1, new_str: 'one and a half' })).is_error,
    ).toBe(false);
    await edit({ command: 'insert', path: 'list.txt', insert_line: 0, new_str: 'zero\n' });
    expect(await readFile(join(workspace, 'list.txt'), 'utf8')).toBe('zero\none\none and a half\ntwo\n');
    const bad = await edit({ command: 'insert', path: 'list.txt', insert_line: 9, new_str: 'x' });
    expect(bad.is_error).toBe(true);
    expect(text(bad)).toBe(
      'Invalid `insert_line` parameter: 9. It should be within the range of allowed values: [0, 4].',
    );
  });
});

describe('file_editor workspace confinement', () => {
  it('refuses ../ paths', async () => {
    const observation = await edit({ command: 'view', path: '../outside/secret.txt' });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toContain("Invalid path '../outside/secret.txt'");
    expect(text(observation)).toContain('outside the workspace');
    expect(observation.path).toBe(join(outside, 'secret.txt'));
  });

  it('refuses absolute paths outside the workspace, and creating files there', async () => {
    expect((await edit({ command: 'view', path: join(outside, 'secret.txt') })).is_error).toBe(true);
    const created = await edit({ command: 'create', path: join(outside, 'new.txt'), file_text: 'x' });
    expect(created.is_error).toBe(true);
    await expect(readFile(join(outside, 'new.txt'), 'utf8')).rejects.toThrow();
  });

  it('refuses a symlink (file or directory) that points outside', async () => {
    await symlink(join(outside, 'secret.txt'), join(workspace, 'link.txt'));
    await symlink(outside, join(workspace, 'dir-link'));
    const viaFile = await edit({ command: 'str_replace', path: 'link.txt', old_str: 'top', new_str: 'no' });
    expect(viaFile.is_error).toBe(true);
    expect(text(viaFile)).toContain('(through a symlink)');
    const viaDir = await edit({ command: 'create', path: 'dir-link/planted.txt', file_text: 'x' });
    expect(viaDir.is_error).toBe(true);
    await expect(readFile(join(outside, 'planted.txt'), 'utf8')).rejects.toThrow();
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  it('refuses writing through a dangling symlink', async () => {
    await symlink(join(outside, 'not-yet.txt'), join(workspace, 'dangling.txt'));
    const observation = await edit({ command: 'create', path: 'dangling.txt', file_text: 'x' });
    expect(observation.is_error).toBe(true);
    await expect(readFile(join(outside, 'not-yet.txt'), 'utf8')).rejects.toThrow();
  });

  it('accepts symlinks that stay inside the workspace', async () => {
    await writeFile(join(workspace, 'real.txt'), 'inside\n');
    await symlink(join(workspace, 'real.txt'), join(workspace, 'alias.txt'));
    expect(text(await edit({ command: 'view', path: 'alias.txt' }))).toContain('     1\tinside');
  });
});
