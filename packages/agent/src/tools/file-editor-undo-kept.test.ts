// What the model is told of file_editor and what it gets for a call the command cannot take: an undo that is refused
// leaves the edit undoable, a missing insert_line is named, and the tool's texts and annotations are the reference's.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolToChatTool } from './chat-tool.js';
import { createFileEditorTool } from './file-editor-tool.js';

const editor = createFileEditorTool();
let root: string;
let workspace: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-editor-undo-')));
  workspace = join(root, 'ws');
  await mkdir(workspace);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const edit = (args: Record<string, unknown>) => editor.execute({ ...args, kind: 'FileEditorAction' }, { workspace });
const text = (observation: Observation) =>
  observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('file_editor', () => {
  it('keeps an edit undoable when its undo is refused (the file is not UTF-8 now), and undoes it once it is', async () => {
    await writeFile(join(workspace, 'f.txt'), 'before\n');
    expect((await edit({ command: 'str_replace', path: 'f.txt', old_str: 'before', new_str: 'after' })).is_error).toBe(
      false,
    );
    await writeFile(join(workspace, 'f.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    const refused = await edit({ command: 'undo_edit', path: 'f.txt' });
    expect(refused.is_error).toBe(true);
    expect(text(refused)).toContain('is not UTF-8 text');
    await writeFile(join(workspace, 'f.txt'), 'after\n');
    const undone = await edit({ command: 'undo_edit', path: 'f.txt' });
    expect(undone.is_error).toBe(false);
    expect(await readFile(join(workspace, 'f.txt'), 'utf8')).toBe('before\n');
  });

  it('names insert_line when an insert leaves it out', async () => {
    await writeFile(join(workspace, 'f.txt'), 'one\n');
    const observation = await edit({ command: 'insert', path: 'f.txt', new_str: 'two\n' });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe('Parameter `insert_line` is required for command: insert.');
    expect(await readFile(join(workspace, 'f.txt'), 'utf8')).toBe('one\n');
  });

  it("tells the model view_range is 1-based, and carries the reference's annotations", () => {
    const properties = toolToChatTool(editor).function.parameters.properties as Record<string, { description: string }>;
    expect(properties.view_range?.description).toContain('Indexing at 1 to start.');
    expect(editor.annotations).toEqual({
      title: 'file_editor',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
  });
});
