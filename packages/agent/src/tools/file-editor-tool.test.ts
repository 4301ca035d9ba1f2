import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, open, readFile, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
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
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
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
      prev_exist: false,
      new_content: 'one\ntwo\nthree\n',
      kind: 'FileEditorObservation',
    });
    expect(await readFile(join(workspace, 'src/a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    const viewed = await edit({ command: 'view', path: `${workspace}/src/a.txt` });
    expect(text(viewed)).toBe(
      `Here's the result of running \`cat -n\` on ${workspace}/src/a.txt:\n     1\tone\n     2\ttwo\n     3\tthree\n     4\t\n`,
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

  it('lists a directory two levels deep without hidden entries, counting those at its top', async () => {
    await mkdir(join(workspace, 'a/b/c'), { recursive: true });
    await writeFile(join(workspace, 'a/file.txt'), '');
    await writeFile(join(workspace, 'a/b/c/deep.txt'), '');
    await writeFile(join(workspace, 'a/.inner'), '');
    await writeFile(join(workspace, '.hidden'), '');
    await mkdir(join(workspace, '.git'));
    const listing = text(await edit({ command: 'view', path: '.' }));
    expect(listing).toBe(
      `Here's the files and directories up to 2 levels deep in ${workspace}, excluding hidden items:\n` +
        `${workspace}/\n${workspace}/a/\n${workspace}/a/b/\n${workspace}/a/file.txt\n\n` +
        `2 hidden files/directories in this directory are excluded. You can use 'ls -la ${workspace}' to see them.`,
    );
    expect(text(await edit({ command: 'view', path: 'a' }))).toBe(
      `Here's the files and directories up to 2 levels deep in ${workspace}/a, excluding hidden items:\n` +
        `${workspace}/a/\n${workspace}/a/b/\n${workspace}/a/b/c/\n${workspace}/a/file.txt\n\n` +
        `1 hidden files/directories in this directory are excluded. You can use 'ls -la ${workspace}/a' to see them.`,
    );
  });

  it('refuses to overwrite with create', async () => {
    await writeFile(join(workspace, 'keep.txt'), 'original');
    const observation = await edit({ command: 'create', path: 'keep.txt', file_text: 'new' });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toBe(
      `Invalid \`path\` parameter: ${workspace}/keep.txt. File already exists at: ${workspace}/keep.txt. Cannot overwrite files using command \`create\`.`,
    );
    expect(await readFile(join(workspace, 'keep.txt'), 'utf8')).toBe('original');
  });

  it('reports a missing path and a missing required parameter', async () => {
    const missing = await edit({ command: 'view', path: 'nope.txt' });
    expect(missing.is_error).toBe(true);
    expect(text(missing)).toBe(
      `Invalid \`path\` parameter: ${workspace}/nope.txt. The path ${workspace}/nope.txt does not exist. Please provide a valid path.`,
    );
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
    expect(text(observation)).toBe(
      'No replacement was performed. Multiple occurrences of old_str `x = 1` in lines [1, 3]. Please ensure it is unique.',
    );
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
      'Invalid `insert_line` parameter: 9. It should be within the range of allowed values: [0, 4]',
    );
  });
});

describe('file_editor workspace confinement', () => {
  it('refuses ../ paths', async () => {
    const observation = await edit({ command: 'view', path: '../outside/secret.txt' });
    expect(observation.is_error).toBe(true);
    expect(text(observation)).toContain("Invalid path '../outside/secret.txt'");
    expect(text(observation)).toContain('outside the workspace');
    // As in the reference, an error observation carries no path.
    expect(observation).toEqual({
      content: observation.content,
      is_error: true,
      command: 'view',
      prev_exist: true,
      kind: 'FileEditorObservation',
    });
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

describe('file_editor observation fields and undo_edit (reference FileEditorObservation)', () => {
  it('records old and new content of an edit, and undo_edit restores the previous content', async () => {
    await writeFile(join(workspace, 'u.txt'), 'alpha\nbeta\n');
    const replaced = await edit({ command: 'str_replace', path: 'u.txt', old_str: 'beta', new_str: 'gamma' });
    expect(Object.keys(replaced)).toEqual([
      'content',
      'is_error',
      'command',
      'path',
      'prev_exist',
      'old_content',
      'new_content',
      'kind',
    ]);
    expect(replaced).toMatchObject({ prev_exist: true, old_content: 'alpha\nbeta\n', new_content: 'alpha\ngamma\n' });
    await edit({ command: 'insert', path: 'u.txt', insert_line: 0, new_str: 'zero' });
    expect(await readFile(join(workspace, 'u.txt'), 'utf8')).toBe('zero\nalpha\ngamma\n');

    const undone = await edit({ command: 'undo_edit', path: 'u.txt' });
    expect(undone.is_error).toBe(false);
    expect(text(undone)).toBe(
      `Last edit to ${workspace}/u.txt undone successfully. Here's the result of running \`cat -n\` on ${workspace}/u.txt:\n     1\talpha\n     2\tgamma\n     3\t\n`,
    );
    expect(undone).toMatchObject({ old_content: 'zero\nalpha\ngamma\n', new_content: 'alpha\ngamma\n' });
    await edit({ command: 'undo_edit', path: 'u.txt' });
    expect(await readFile(join(workspace, 'u.txt'), 'utf8')).toBe('alpha\nbeta\n');
    const none = await edit({ command: 'undo_edit', path: 'u.txt' });
    expect(none.is_error).toBe(true);
    expect(text(none)).toBe(`No edit history found for ${workspace}/u.txt.`);
  });

  it("keeps each conversation's undo history apart", async () => {
    await writeFile(join(workspace, 'v.txt'), 'one\n');
    await editor.execute(
      { command: 'str_replace', path: 'v.txt', old_str: 'one', new_str: 'two', kind: 'FileEditorAction' },
      { workspace, conversationId: 'a' },
    );
    const other = await editor.execute(
      { command: 'undo_edit', path: 'v.txt', kind: 'FileEditorAction' },
      { workspace, conversationId: 'b' },
    );
    expect(other.is_error).toBe(true);
    await editor.closeConversation?.('a');
  });
});

describe('file_editor confinement at use', () => {
  it('neither reads nor writes through a hard link to a file outside', async () => {
    const secret = join(outside, 'secret.txt');
    await link(secret, join(workspace, 'hard.txt'));
    const viewed = await edit({ command: 'view', path: 'hard.txt' });
    expect(viewed.is_error).toBe(true);
    expect(text(viewed)).toContain('hard links');
    expect(text(viewed)).not.toContain('top secret');
    for (const args of [
      { command: 'str_replace', path: 'hard.txt', old_str: 'top', new_str: 'pwned' },
      { command: 'insert', path: 'hard.txt', insert_line: 0, new_str: 'pwned' },
      { command: 'create', path: 'hard.txt', file_text: 'pwned' },
    ]) {
      const observation = await edit(args);
      expect(observation.is_error).toBe(true);
    }
    expect(await readFile(secret, 'utf8')).toBe('top secret\n');
    expect((await stat(join(workspace, 'hard.txt'))).ino).toBe((await stat(secret)).ino);
  });

  it('refuses a file over the size limit instead of holding it in memory (sparse 3 GiB file)', async () => {
    const big = join(workspace, 'big.bin');
    const handle = await open(big, 'w');
    await handle.truncate(3 * 1024 * 1024 * 1024);
    await handle.close();
    const viewed = await edit({ command: 'view', path: 'big.bin' });
    expect(viewed.is_error).toBe(true);
    // The reference's text for the same file.
    expect(text(viewed)).toBe(
      `File validation failed for ${workspace}/big.bin: File is too large (3072.0MB). Maximum allowed size is 10MB.`,
    );
  });

  it('refuses a NUL byte in a path with an error observation', async () => {
    const viewed = await edit({ command: 'view', path: 'a\0b' });
    expect(viewed.is_error).toBe(true);
    expect(text(viewed)).toContain('NUL');
  });

  it('refuses a FIFO promptly even when many are viewed at once (Node file threads stay free)', async () => {
    execFileSync('mkfifo', [join(workspace, 'many')]);
    const views = await Promise.all(Array.from({ length: 8 }, () => edit({ command: 'view', path: 'many' })));
    for (const viewed of views) expect(text(viewed)).toContain('FIFO');
    await writeFile(join(workspace, 'after.txt'), 'still works\n');
    expect(text(await edit({ command: 'view', path: 'after.txt' }))).toContain('still works');
  });

  it('keeps the mode of the file it replaces', async () => {
    await writeFile(join(workspace, 'run.sh'), 'echo a\n', { mode: 0o755 });
    await edit({ command: 'str_replace', path: 'run.sh', old_str: 'a', new_str: 'b' });
    expect((await stat(join(workspace, 'run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('refuses a FIFO with an error instead of hanging, for view and edits', async () => {
    execFileSync('mkfifo', [join(workspace, 'pipe')]);
    const viewed = await edit({ command: 'view', path: 'pipe' });
    expect(viewed.is_error).toBe(true);
    expect(text(viewed)).toBe("Invalid path 'pipe': it is a FIFO (named pipe), not a regular file.");
    const replaced = await edit({ command: 'str_replace', path: 'pipe', old_str: 'a', new_str: 'b' });
    expect(replaced.is_error).toBe(true);
    expect(text(replaced)).toContain('FIFO');
  });

  it('does not follow a directory swapped for a symlink to the outside after the path was checked', async () => {
    const { openVerifiedDirectory } = await import('../paths/index.js');
    await mkdir(join(workspace, 'dir'));
    // The check passed for workspace/dir; now it becomes a link to the outside before the editor opens it.
    await rename(join(workspace, 'dir'), join(workspace, 'dir-moved'));
    await symlink(outside, join(workspace, 'dir'));
    await expect(openVerifiedDirectory(workspace, join(workspace, 'dir'), 'dir/x.txt')).rejects.toThrow(
      /replaced by a link/,
    );
    // A link higher up is caught by where the opened descriptor really points.
    await symlink(outside, join(workspace, 'up'));
    await expect(openVerifiedDirectory(workspace, `${workspace}/up/.`, 'up/x.txt')).rejects.toThrow(
      /outside the workspace/,
    );
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  it('survives a race: a swap loop never gets a write outside the workspace', async () => {
    await mkdir(join(workspace, 'race'));
    await writeFile(join(workspace, 'race', 'f.txt'), 'inside\n');
    await writeFile(join(outside, 'f.txt'), 'outside\n');
    let swapping = true;
    const swapper = (async () => {
      let flip = false;
      while (swapping) {
        flip = !flip;
        await rm(join(workspace, 'race'), { recursive: true, force: true, maxRetries: 5 }).catch(() => undefined);
        if (flip) await symlink(outside, join(workspace, 'race')).catch(() => undefined);
        else {
          await mkdir(join(workspace, 'race')).catch(() => undefined);
          await writeFile(join(workspace, 'race', 'f.txt'), 'inside\n').catch(() => undefined);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let attempt = 0; attempt < 100; attempt += 1) {
      await edit({ command: 'str_replace', path: 'race/f.txt', old_str: 'side', new_str: 'SIDE' }).catch(
        () => undefined,
      );
      await edit({ command: 'create', path: `race/new-${attempt}.txt`, file_text: 'planted' }).catch(() => undefined);
    }
    swapping = false;
    await swapper;
    expect(await readFile(join(outside, 'f.txt'), 'utf8')).toBe('outside\n');
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(outside)).sort()).toEqual(['f.txt', 'secret.txt']);
  });
});
