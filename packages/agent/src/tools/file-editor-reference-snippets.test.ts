import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileEditorTool } from './file-editor-tool.js';

// Every expected text here is what the reference's FileEditorExecutor returned for the same file and command
// (run side by side with this tool, the workspace path put back in).

const editor = createFileEditorTool();
let root: string;
let workspace: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-editor-snippets-')));
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
const cat = (path: string) => `Here's the result of running \`cat -n\` on ${workspace}/${path}:\n`;
const replaced = (path: string, lines: string) =>
  `The file ${workspace}/${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${workspace}/${path}:\n` +
  `${lines}Review the changes and make sure they are as expected. Edit the file again if necessary.`;
const inserted = (path: string, lines: string) =>
  `The file ${workspace}/${path} has been edited. Here's the result of running \`cat -n\` on a snippet of the edited file:\n` +
  `${lines}Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.`;
const shown = (text: string) => ({ is_error: false, text });

describe('file_editor numbers a final newline as the reference does', () => {
  it('shows an empty last line in a whole view of a file ending with a newline, not in a ranged view', async () => {
    await writeFile(join(workspace, 'notes.md'), 'line one\nline two\n');
    expect(await edit({ command: 'view', path: 'notes.md' })).toEqual(
      shown(`${cat('notes.md')}     1\tline one\n     2\tline two\n     3\t\n`),
    );
    expect(await edit({ command: 'view', path: 'notes.md', view_range: [1, -1] })).toEqual(
      shown(`${cat('notes.md')}     1\tline one\n     2\tline two\n`),
    );
    expect(await edit({ command: 'view', path: 'notes.md', view_range: [2, 5] })).toEqual(
      shown(
        `NOTE: We only show up to 2 since there're only 2 lines in this file.\n${cat('notes.md')}     2\tline two\n`,
      ),
    );
    // An empty range is no range, as the reference's `if not view_range`.
    expect(await edit({ command: 'view', path: 'notes.md', view_range: [] })).toEqual(
      shown(`${cat('notes.md')}     1\tline one\n     2\tline two\n     3\t\n`),
    );
  });

  it('shows no empty line for a file without a final newline, viewed or edited at its end', async () => {
    await writeFile(join(workspace, 'nonl.txt'), 'a\nb\nc');
    expect(await edit({ command: 'view', path: 'nonl.txt' })).toEqual(
      shown(`${cat('nonl.txt')}     1\ta\n     2\tb\n     3\tc\n`),
    );
    expect(await edit({ command: 'str_replace', path: 'nonl.txt', old_str: 'c', new_str: 'C' })).toEqual(
      shown(replaced('nonl.txt', '     1\ta\n     2\tb\n     3\tC\n')),
    );
  });

  it('numbers the line after a snippet that ends with a line end, after a replacement and an insertion', async () => {
    await writeFile(join(workspace, 'ten.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join(''));
    expect(await edit({ command: 'str_replace', path: 'ten.txt', old_str: 'line 5\n', new_str: 'five\n' })).toEqual(
      shown(
        replaced(
          'ten.txt',
          '     2\tline 2\n     3\tline 3\n     4\tline 4\n     5\tfive\n     6\tline 6\n     7\tline 7\n' +
            '     8\tline 8\n     9\tline 9\n    10\tline 10\n    11\t\n',
        ),
      ),
    );
    expect(await edit({ command: 'insert', path: 'ten.txt', insert_line: 10, new_str: 'eleven' })).toEqual(
      shown(
        inserted(
          'ten.txt',
          '     7\tline 7\n     8\tline 8\n     9\tline 9\n    10\tline 10\n    11\televen\n    12\t\n',
        ),
      ),
    );
  });

  it('shows an empty file as one empty line, after an insertion into it and after undoing that', async () => {
    await writeFile(join(workspace, 'empty.txt'), '');
    expect(await edit({ command: 'view', path: 'empty.txt' })).toEqual(shown(`${cat('empty.txt')}     1\t\n`));
    expect(await edit({ command: 'insert', path: 'empty.txt', insert_line: 0, new_str: 'first' })).toEqual(
      shown(inserted('empty.txt', '     1\tfirst\n     2\t\n')),
    );
    expect(await edit({ command: 'undo_edit', path: 'empty.txt' })).toEqual(
      shown(`Last edit to ${workspace}/empty.txt undone successfully. ${cat('empty.txt')}     1\t\n`),
    );
  });

  it('shows the restored text of an undo with its empty last line', async () => {
    await writeFile(join(workspace, 'u.txt'), 'alpha\nbeta\n');
    expect(await edit({ command: 'str_replace', path: 'u.txt', old_str: 'beta', new_str: 'gamma' })).toEqual(
      shown(replaced('u.txt', '     1\talpha\n     2\tgamma\n     3\t\n')),
    );
    expect(await edit({ command: 'undo_edit', path: 'u.txt' })).toEqual(
      shown(
        `Last edit to ${workspace}/u.txt undone successfully. ${cat('u.txt')}     1\talpha\n     2\tbeta\n     3\t\n`,
      ),
    );
  });

  it('splits a ranged view at every line break Python knows (a form feed), a whole view only at newlines', async () => {
    await writeFile(join(workspace, 'ff.txt'), 'a\fb\nc\n');
    expect(await edit({ command: 'view', path: 'ff.txt' })).toEqual(
      shown(`${cat('ff.txt')}     1\ta\fb\n     2\tc\n     3\t\n`),
    );
    expect(await edit({ command: 'view', path: 'ff.txt', view_range: [1, 2] })).toEqual(
      shown(`${cat('ff.txt')}     1\ta\n     2\tb\n     3\tc\n`),
    );
  });
});

describe('file_editor cuts long file text as the reference does', () => {
  it('cuts the text to 16000 characters with its notice before numbering it, in a view and a snippet', async () => {
    const fixture = JSON.parse(
      await readFile(new URL('./__fixtures__/file-editor-reference-cut.json', import.meta.url), 'utf8'),
    ) as { view: string; str_replace: string };
    const lines = Array.from({ length: 4000 }, (_, i) => `${String(i).padStart(5, '0')}\n`).join('');
    await writeFile(join(workspace, 'big.txt'), lines);
    const inWorkspace = (text: string) => text.replaceAll('<WS>', workspace);
    expect(await edit({ command: 'view', path: 'big.txt' })).toEqual(shown(inWorkspace(fixture.view)));
    const long = await edit({
      command: 'str_replace',
      path: 'big.txt',
      old_str: '02000\n',
      new_str: `${'x'.repeat(20000)}\n`,
    });
    expect(long).toEqual(shown(inWorkspace(fixture.str_replace)));
  });
});

describe('file_editor str_replace with an empty or blank old_str, as the reference', () => {
  it('fills an empty file, where the empty old_str occurs once', async () => {
    await writeFile(join(workspace, 'blank.txt'), '');
    expect(await edit({ command: 'str_replace', path: 'blank.txt', old_str: '', new_str: 'filled' })).toEqual(
      shown(replaced('blank.txt', '     1\tfilled\n')),
    );
    expect(await readFile(join(workspace, 'blank.txt'), 'utf8')).toBe('filled');
    await writeFile(join(workspace, 'ws.txt'), '');
    expect(await edit({ command: 'str_replace', path: 'ws.txt', old_str: '  ', new_str: 'x\n' })).toEqual(
      shown(replaced('ws.txt', '     1\tx\n     2\t\n')),
    );
  });

  it('names every line when a blank old_str, stripped to nothing, is found everywhere', async () => {
    await writeFile(join(workspace, 'keep.txt'), 'keep\n');
    expect(await edit({ command: 'str_replace', path: 'keep.txt', old_str: '  \n ', new_str: 'x' })).toEqual({
      is_error: true,
      text: 'No replacement was performed. Multiple occurrences of old_str `` in lines [1, 2]. Please ensure it is unique.',
    });
    expect(await readFile(join(workspace, 'keep.txt'), 'utf8')).toBe('keep\n');
  });

  it("strips an old_str found nowhere of Python's whitespace (\\x85, \\x1c), not of a byte order mark", async () => {
    await writeFile(join(workspace, 'app.py'), 'def greet():\n    print("hi")\n');
    expect(
      await edit({ command: 'str_replace', path: 'app.py', old_str: '\u0085\u001cprint("hi")\u0085', new_str: 'x' }),
    ).toEqual(shown(replaced('app.py', '     1\tdef greet():\n     2\t    x\n     3\t\n')));
    expect(await edit({ command: 'str_replace', path: 'app.py', old_str: '\ufeffgreet', new_str: 'x' })).toEqual({
      is_error: true,
      text: `No replacement was performed, old_str \`\ufeffgreet\` did not appear verbatim in ${workspace}/app.py.`,
    });
  });
});
