import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  entryKind,
  openRegularFile,
  openVerifiedDirectory,
  readRegularFile,
  type VerifiedDirectory,
  WorkspacePathError,
} from './index.js';

// What the tools (file editor, apply_patch, grep, skills) may read of a workspace: a regular file with one name,
// within a size limit, as UTF-8 text. Everything else is a WorkspacePathError naming its problem.

let root: string;
let directory: VerifiedDirectory;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-regular-file-')));
  await mkdir(join(root, 'sub'));
  await writeFile(join(root, 'five.txt'), 'hello');
  await writeFile(join(root, 'empty.txt'), '');
  await writeFile(join(root, 'original.txt'), 'two names');
  await link(join(root, 'original.txt'), join(root, 'hard.txt'));
  await symlink(join(root, 'five.txt'), join(root, 'link.txt'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
  await writeFile(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  await writeFile(join(root, 'bom.txt'), Buffer.from([0xef, 0xbb, 0xbf, 0x61]));
  directory = await openVerifiedDirectory(root, root, '.');
});
afterAll(async () => {
  await directory.close();
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** The problem a read of `name` is refused with, and its message. */
async function refusal(name: string, options: { maxBytes?: number; strictUtf8?: boolean } = {}) {
  const error = await readRegularFile(directory, name, { shown: name, ...options }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WorkspacePathError.isInstance(error)) throw new Error(`expected a WorkspacePathError for ${name}: ${error}`);
  return { problem: error.problem, message: error.message };
}

describe('readRegularFile', () => {
  it('reads a file of up to maxBytes bytes whole, and refuses one byte more', async () => {
    expect(await readRegularFile(directory, 'five.txt', { shown: 'five.txt' })).toBe('hello');
    expect(await readRegularFile(directory, 'five.txt', { shown: 'five.txt', maxBytes: 5 })).toBe('hello');
    expect(await readRegularFile(directory, 'five.txt', { shown: 'five.txt', maxBytes: 64 })).toBe('hello');
    expect(await readRegularFile(directory, 'empty.txt', { shown: 'empty.txt', maxBytes: 0 })).toBe('');
    expect(await refusal('five.txt', { maxBytes: 4 })).toEqual({
      problem: 'too_large',
      message: "Invalid path 'five.txt': it is 5 bytes long, over the limit of 4 bytes.",
    });
  });

  it('refuses a directory, a symbolic link, a FIFO, a missing file and a file with two names', async () => {
    expect(await refusal('sub')).toEqual({
      problem: 'directory',
      message: "Invalid path 'sub': it is a directory, not a file.",
    });
    expect((await refusal('link.txt')).problem).toBe('link');
    expect(await refusal('pipe')).toEqual({
      problem: 'not_regular',
      message: "Invalid path 'pipe': it is a FIFO (named pipe), not a regular file.",
    });
    expect(await refusal('missing.txt')).toEqual({
      problem: 'missing',
      message: "Invalid path 'missing.txt': no such file.",
    });
    expect(await refusal('hard.txt')).toEqual({
      problem: 'hard_link',
      message:
        "Invalid path 'hard.txt': it has 2 hard links; a file with another name (possibly outside the workspace) is not read.",
    });
  });

  it('reads bytes that are not UTF-8 as U+FFFD, and refuses them when strictUtf8 (a BOM is kept)', async () => {
    expect(await readRegularFile(directory, 'latin1.txt', { shown: 'latin1.txt' })).toBe('caf\uFFFD');
    expect(await readRegularFile(directory, 'latin1.txt', { shown: 'latin1.txt', maxBytes: 10 })).toBe('caf\uFFFD');
    expect(await refusal('latin1.txt', { strictUtf8: true })).toEqual({
      problem: 'not_utf8',
      message: "Invalid path 'latin1.txt': it is not UTF-8 text.",
    });
    expect(await refusal('latin1.txt', { strictUtf8: true, maxBytes: 10 })).toMatchObject({ problem: 'not_utf8' });
    expect(await readRegularFile(directory, 'bom.txt', { shown: 'bom.txt', strictUtf8: true })).toBe('\uFEFFa');
    expect(await readRegularFile(directory, 'five.txt', { shown: 'five.txt', strictUtf8: true })).toBe('hello');
  });
});

describe('openRegularFile', () => {
  it('opens a regular file with its size, and refuses one over maxBytes before reading', async () => {
    const opened = await openRegularFile(directory, 'five.txt', { shown: 'five.txt', maxBytes: 5 });
    expect(opened.size).toBe(5);
    await opened.handle.close();
    const error = await openRegularFile(directory, 'five.txt', { shown: 'five.txt', maxBytes: 4 }).catch(
      (caught: unknown) => caught,
    );
    expect(WorkspacePathError.isInstance(error) && error.problem).toBe('too_large');
  });
});

describe('entryKind', () => {
  it('names a file, a directory, a missing entry and what anything else is, without following a link', async () => {
    expect(await entryKind(directory, 'five.txt')).toBe('file');
    expect(await entryKind(directory, 'sub')).toBe('directory');
    expect(await entryKind(directory, 'missing.txt')).toBe('missing');
    expect(await entryKind(directory, 'link.txt')).toEqual({ other: 'a symbolic link' });
    expect(await entryKind(directory, 'pipe')).toEqual({ other: 'a FIFO (named pipe)' });
  });
});
