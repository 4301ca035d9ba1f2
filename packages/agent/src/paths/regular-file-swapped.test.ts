import { execFileSync } from 'node:child_process';
import { constants, openSync } from 'node:fs';
import { link, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openVerifiedDirectory, readRegularFile, type VerifiedDirectory, WorkspacePathError } from './index.js';

// An entry swapped between the check (lstat) and the open: the open itself (O_NOFOLLOW, O_NONBLOCK) and the
// descriptor's own stat refuse what came in its place. lstat is made to answer for these names what it answered
// before the swap (a plain file with one name), so each read meets the swapped entry only at the open.

const SWAPPED = new Set(['link.txt', 'socket', 'gone.txt', 'pipe', 'hard.txt']);

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    lstat: (path: string) => actual.lstat(SWAPPED.has(basename(path)) ? join(dirname(path), 'plain.txt') : path),
  };
});

let base: string;
let root: string;
let directory: VerifiedDirectory;
let server: Server;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'x-regular-file-swapped-')));
  root = join(base, 'workspace');
  execFileSync('mkdir', [root]);
  await writeFile(join(base, 'secret.txt'), 'SECRET');
  await writeFile(join(root, 'plain.txt'), 'plain');
  await symlink(join(base, 'secret.txt'), join(root, 'link.txt'));
  await link(join(base, 'secret.txt'), join(root, 'hard.txt'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(join(root, 'socket'), resolve));
  directory = await openVerifiedDirectory(root, root, '.');
});
afterAll(async () => {
  await directory.close();
  await new Promise((resolve) => server.close(resolve));
  await rm(base, { recursive: true, force: true, maxRetries: 5 });
});

async function refusal(name: string) {
  const error = await readRegularFile(directory, name, { shown: name }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WorkspacePathError.isInstance(error)) throw new Error(`expected a WorkspacePathError for ${name}: ${error}`);
  return [error.problem, error.message];
}

describe('readRegularFile of an entry swapped after its check', () => {
  it('refuses a symbolic link, a socket and a removed file at the open', async () => {
    expect(await refusal('link.txt')).toEqual(['link', "Invalid path 'link.txt': it was replaced by a symbolic link."]);
    expect(await refusal('socket')).toEqual([
      'not_regular',
      "Invalid path 'socket': it was replaced by something that is not a regular file.",
    ]);
    expect(await refusal('gone.txt')).toEqual(['missing', "Invalid path 'gone.txt': no such file."]);
  });

  it('refuses a FIFO (closing it again) and a file with another name outside, by the descriptor', async () => {
    expect(await refusal('pipe')).toEqual([
      'not_regular',
      "Invalid path 'pipe': it is a FIFO (named pipe), not a regular file.",
    ]);
    // A writer that will not wait finds no reader: the descriptor the refusal opened was closed.
    expect(() => openSync(join(root, 'pipe'), constants.O_WRONLY | constants.O_NONBLOCK)).toThrow(
      expect.objectContaining({ code: 'ENXIO' }),
    );
    expect((await refusal('hard.txt'))[0]).toBe('hard_link');
    expect(await readRegularFile(directory, 'plain.txt', { shown: 'plain.txt' })).toBe('plain');
  });
});
