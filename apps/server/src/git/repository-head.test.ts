import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { GitRepositoryError } from './git-repository-error.js';
import { readRepositoryHead } from './repository-head.js';

const cleanups: string[] = [];
afterEach(async () => {
  for (const dir of cleanups.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A git directory (only its HEAD matters here) whose HEAD is written by `write`. */
async function gitDirectoryWith(write: (head: string) => Promise<unknown>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'x-repository-head-'));
  cleanups.push(dir);
  await write(join(dir, 'HEAD'));
  return dir;
}

const SHA1 = 'a'.repeat(40);
const SHA256 = 'b'.repeat(64);

describe('readRepositoryHead', () => {
  it('reads a branch, a detached commit of either hash, and a legacy symlink to a branch', async () => {
    const cases: Array<[(head: string) => Promise<unknown>, string]> = [
      [(head) => writeFile(head, 'ref: refs/heads/main\n'), 'ref: refs/heads/main'],
      [(head) => writeFile(head, 'ref:\t refs/heads/feature/x \n'), 'ref: refs/heads/feature/x'],
      [(head) => writeFile(head, `${SHA1}\n`), SHA1],
      [(head) => writeFile(head, SHA256), SHA256],
      [(head) => symlink('refs/heads/main', head), 'ref: refs/heads/main'],
    ];
    for (const [write, expected] of cases) {
      expect(await readRepositoryHead(await gitDirectoryWith(write), '/ws/repo')).toBe(expected);
    }
  });

  it('refuses, naming the directory asked about, a HEAD that names neither a branch nor a commit', async () => {
    const refusals: Array<(head: string) => Promise<unknown>> = [
      (head) => writeFile(head, 'ref: HEAD\n'),
      (head) => writeFile(head, 'ref: refs/heads/a\nref: refs/heads/b\n'),
      (head) => writeFile(head, `${SHA1.slice(1)}\n`),
      (head) => writeFile(head, `${SHA1}0\n`),
      (head) => writeFile(head, `x${SHA1}\n`),
      (head) => symlink('/etc/hostname', head),
      (head) => symlink('refs/heads/a\nb', head),
      (head) => promisify(execFile)('mkfifo', [head]),
      async () => {},
    ];
    for (const write of refusals) {
      const failure = await readRepositoryHead(await gitDirectoryWith(write), '/ws/repo').catch((error) => error);
      expect(GitRepositoryError.isInstance(failure)).toBe(true);
      expect((failure as Error).message).toBe(
        'The HEAD of the repository of /ws/repo names neither a branch nor a commit',
      );
    }
  });
});
