import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileEditorTool } from './file-editor-tool.js';

// A file that is not UTF-8 (Latin-1 here) is read as text with U+FFFD in place of its undecodable bytes. An edit
// would write those U+FFFD back and lose the bytes, so edits refuse it and leave the file as it was; a view still
// shows it.

const editor = createFileEditorTool();
const latin1 = Buffer.from('caf\xe9 au lait\nline two\n', 'latin1');
let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-editor-latin1-')));
  await writeFile(join(workspace, 'menu.txt'), latin1);
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

const run = async (args: Record<string, unknown>) => {
  const observation: Observation = await editor.execute(
    { path: join(workspace, 'menu.txt'), ...args, kind: 'FileEditorAction' },
    { workspace },
  );
  return {
    is_error: observation.is_error,
    text: observation.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
  };
};

describe('file_editor on a file that is not UTF-8', () => {
  it.each([
    { command: 'str_replace', old_str: 'line two', new_str: 'line 2' },
    { command: 'insert', insert_line: 1, new_str: 'inserted' },
  ])('refuses $command and leaves every byte as it was', async (args) => {
    const result = await run(args);
    expect(result).toEqual({
      is_error: true,
      text:
        `File validation failed for ${join(workspace, 'menu.txt')}: File is not UTF-8 text and this tool cannot ` +
        'edit it without losing bytes. View it, or change it with the terminal.',
    });
    expect((await readFile(join(workspace, 'menu.txt'))).equals(latin1)).toBe(true);
  });

  it('still views it, undecodable bytes shown as U+FFFD', async () => {
    const result = await run({ command: 'view' });
    expect(result.is_error).toBe(false);
    expect(result.text).toContain('     1\tcaf\uFFFD au lait\n');
  });

  it('edits a UTF-8 file that holds a byte order mark and a U+FFFD of its own, keeping both', async () => {
    await writeFile(join(workspace, 'menu.txt'), '\uFEFFcaf\uFFFD\nline two\n');
    expect((await run({ command: 'str_replace', old_str: 'line two', new_str: 'line 2' })).is_error).toBe(false);
    expect(await readFile(join(workspace, 'menu.txt'), 'utf8')).toBe('\uFEFFcaf\uFFFD\nline 2\n');
  });
});
