// A directory listing enters each subdirectory through a verified descriptor: a subdirectory swapped for a link to
// a directory outside the workspace between the listing of its parent and its own is not listed through the link.
// The swap is made inside the first readdir, where the race would fall.
import type * as fs from 'node:fs/promises';
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const swap = vi.hoisted(() => ({ before: undefined as undefined | (() => Promise<void>) }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>();
  return {
    ...actual,
    readdir: async (...args: Parameters<typeof actual.readdir>) => {
      const entries = await (actual.readdir as (...a: unknown[]) => Promise<unknown>)(...args);
      const run = swap.before;
      swap.before = undefined;
      await run?.();
      return entries;
    },
  };
});

const { createFileEditorTool } = await import('./file-editor-tool.js');

let root: string;
let workspace: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-editor-swap-')));
  workspace = join(root, 'ws');
  await mkdir(join(workspace, 'sub'), { recursive: true });
  await writeFile(join(workspace, 'sub', 'inside.txt'), 'in');
  await mkdir(join(root, 'outside'));
  await writeFile(join(root, 'outside', 'secret-name.txt'), 'out');
});
afterEach(async () => {
  swap.before = undefined;
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

describe('file_editor view of a directory whose subdirectory is swapped for a link', () => {
  it('does not list the directory outside the workspace the link leads to', async () => {
    swap.before = async () => {
      await rename(join(workspace, 'sub'), join(root, 'sub-moved'));
      await symlink(join(root, 'outside'), join(workspace, 'sub'));
    };
    const observation = await createFileEditorTool().execute(
      { command: 'view', path: '.', kind: 'FileEditorAction' },
      { workspace },
    );
    const text = observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    expect(observation.is_error).toBe(false);
    expect(text).toContain(`${workspace}/sub/`);
    expect(text).not.toContain('secret-name.txt');
  });
});
