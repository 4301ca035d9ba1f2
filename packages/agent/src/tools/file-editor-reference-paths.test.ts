import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileEditorTool } from './file-editor-tool.js';

// Every expected text here is what the reference's FileEditorExecutor returned for the same path and command (its
// `validate_path` errors, run side by side with this tool, the workspace path put back in).

const editor = createFileEditorTool();
let root: string;
let workspace: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-editor-paths-')));
  workspace = join(root, 'ws');
  await mkdir(workspace);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const edit = async (args: Record<string, unknown>) => {
  const observation: Observation = await editor.execute({ ...args, kind: 'FileEditorAction' }, { workspace });
  return {
    is_error: observation.is_error,
    text: observation.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
  };
};
const refused = (text: string) => ({ is_error: true, text });
const missing = (path: string) =>
  refused(
    `Invalid \`path\` parameter: ${workspace}/${path}. The path ${workspace}/${path} does not exist. Please provide a valid path.`,
  );
const existing = (path: string) =>
  refused(
    `Invalid \`path\` parameter: ${workspace}/${path}. File already exists at: ${workspace}/${path}. Cannot overwrite files using command \`create\`.`,
  );

describe('file_editor path errors, as the reference', () => {
  it('names a missing path as an invalid `path` parameter, for every command that needs one', async () => {
    for (const args of [
      { command: 'view' },
      { command: 'str_replace', old_str: 'a', new_str: 'b' },
      { command: 'insert', insert_line: 0, new_str: 'b' },
      { command: 'undo_edit' },
    ]) {
      expect(await edit({ ...args, path: 'nope.txt' })).toEqual(missing('nope.txt'));
    }
  });

  it('says a path under a missing directory or under a file does not exist', async () => {
    await writeFile(join(workspace, 'keep.txt'), 'keep\n');
    for (const path of ['nowhere/f.txt', 'keep.txt/x']) {
      expect(await edit({ command: 'view', path })).toEqual(missing(path));
      expect(await edit({ command: 'str_replace', path, old_str: 'a', new_str: 'b' })).toEqual(missing(path));
      expect(await edit({ command: 'insert', path, insert_line: 0, new_str: 'b' })).toEqual(missing(path));
    }
    await expect(stat(join(workspace, 'nowhere'))).rejects.toThrow(/ENOENT/);
  });

  it('names a file or a directory already at the path of a create', async () => {
    await writeFile(join(workspace, 'keep.txt'), 'original');
    await mkdir(join(workspace, 'dir'));
    expect(await edit({ command: 'create', path: 'keep.txt', file_text: 'new' })).toEqual(existing('keep.txt'));
    expect(await edit({ command: 'create', path: 'dir', file_text: 'new' })).toEqual(existing('dir'));
    expect(await readFile(join(workspace, 'keep.txt'), 'utf8')).toBe('original');
  });

  it("checks the path before the command's parameters", async () => {
    await writeFile(join(workspace, 'keep.txt'), 'original');
    expect(await edit({ command: 'create', path: 'keep.txt' })).toEqual(existing('keep.txt'));
    expect(await edit({ command: 'str_replace', path: 'nope.txt' })).toEqual(missing('nope.txt'));
    expect(await edit({ command: 'str_replace', path: 'nope.txt', old_str: 'a', new_str: 'a' })).toEqual(
      missing('nope.txt'),
    );
    expect(await edit({ command: 'insert', path: 'nope.txt' })).toEqual(missing('nope.txt'));
    // With the path good, the parameters are checked: equal strings before the file is searched.
    expect(await edit({ command: 'str_replace', path: 'keep.txt', old_str: 'zz', new_str: 'zz' })).toEqual(
      refused(
        'Invalid `new_str` parameter: zz. No replacement was performed. `new_str` and `old_str` must be different.',
      ),
    );
  });

  it('lists a directory for an empty view range, as no range', async () => {
    await mkdir(join(workspace, 'dir'));
    expect(await edit({ command: 'view', path: 'dir', view_range: [] })).toEqual({
      is_error: false,
      text: `Here's the files and directories up to 2 levels deep in ${workspace}/dir, excluding hidden items:\n${workspace}/dir/`,
    });
  });

  it('ends the insert_line range error without a period', async () => {
    await writeFile(join(workspace, 'notes.md'), 'line one\nline two\n');
    expect(await edit({ command: 'insert', path: 'notes.md', insert_line: 3, new_str: 'x' })).toEqual(
      refused('Invalid `insert_line` parameter: 3. It should be within the range of allowed values: [0, 2]'),
    );
  });
});

describe('file_editor file validation errors, as the reference', () => {
  it('refuses a file with a NUL byte in its first 1024 bytes as binary, for viewing and editing', async () => {
    await writeFile(join(workspace, 'bin.dat'), Buffer.from(Array.from({ length: 1024 }, (_, i) => i % 256)));
    const binary = refused(
      `File validation failed for ${workspace}/bin.dat: File appears to be binary and this file type cannot be read or edited by this tool.`,
    );
    expect(await edit({ command: 'view', path: 'bin.dat' })).toEqual(binary);
    expect(await edit({ command: 'str_replace', path: 'bin.dat', old_str: 'a', new_str: 'b' })).toEqual(binary);
    expect(await edit({ command: 'insert', path: 'bin.dat', insert_line: 0, new_str: 'b' })).toEqual(binary);
  });

  it('counts the 1024 bytes in bytes: a NUL at byte 1023 is binary, one at byte 1040 after 520 é is not', async () => {
    await writeFile(join(workspace, 'edge.txt'), `${'a'.repeat(1023)}\0\n`);
    expect(await edit({ command: 'view', path: 'edge.txt' })).toEqual(
      refused(
        `File validation failed for ${workspace}/edge.txt: File appears to be binary and this file type cannot be read or edited by this tool.`,
      ),
    );
    await writeFile(join(workspace, 'mb.txt'), `${'é'.repeat(520)}\0\n`);
    expect(await edit({ command: 'view', path: 'mb.txt', view_range: [1, 1] })).toEqual({
      is_error: false,
      text: `Here's the result of running \`cat -n\` on ${workspace}/mb.txt:\n     1\t${'é'.repeat(520)}\0\n`,
    });
  });

  it('names the size of a file over 10 MiB in MB, one decimal', async () => {
    await writeFile(join(workspace, 'big.txt'), 'a'.repeat(11010048));
    const tooLarge = refused(
      `File validation failed for ${workspace}/big.txt: File is too large (10.5MB). Maximum allowed size is 10MB.`,
    );
    expect(await edit({ command: 'view', path: 'big.txt' })).toEqual(tooLarge);
    expect(await edit({ command: 'str_replace', path: 'big.txt', old_str: 'a', new_str: 'b' })).toEqual(tooLarge);
  });
});
