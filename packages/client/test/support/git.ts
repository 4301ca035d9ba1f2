import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** git as the tests build repositories with: no configuration of the machine, a fixed identity and date. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const date = '2026-01-02T03:04:05+00:00';
  const { stdout } = await run('git', args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Client Test',
      GIT_AUTHOR_EMAIL: 'client@example.invalid',
      GIT_COMMITTER_NAME: 'Client Test',
      GIT_COMMITTER_EMAIL: 'client@example.invalid',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  });
  return stdout;
}

/** A repository at `directory` on `main` with `file` committed holding `content`. */
export async function initRepository(directory: string, file: string, content: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  await git(directory, 'init', '-q', '-b', 'main');
  await writeFile(join(directory, file), content);
  await git(directory, 'add', '--', file);
  await git(directory, 'commit', '-q', '-m', file);
}

/**
 * `outer`, a repository whose `top.txt` is changed, holding a nested repository per name whose index is damaged:
 * git fails listing its changes, so the server leaves it out of `/api/git/changes` and names it in a header.
 */
export async function repositoryWithUnreadableNested(outer: string, names: readonly string[]): Promise<void> {
  await initRepository(outer, 'top.txt', 'top\n');
  await writeFile(join(outer, 'top.txt'), 'changed\n');
  for (const name of names) {
    await initRepository(join(outer, name), 'b.txt', 'b\n');
    await writeFile(join(outer, name, '.git', 'index'), 'not an index');
  }
}
