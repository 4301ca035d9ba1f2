import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveServerSandboxing } from '../sandboxing/server-sandboxing.js';
import { withGitRepository } from './git-repository.js';
import { GitRunner } from './git-runner.js';

const run = promisify(execFile);
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
};

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await run('git', args, { cwd, env: GIT_ENV })).stdout;
}

/** A runner (real sandbox) over a fresh workspace holding a repository `repo` with one commit on `main`. */
async function setUp(): Promise<{ runner: GitRunner; workspaceRoot: string; repo: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'x-git-repository-'));
  const workspaceRoot = join(dataDir, 'workspaces');
  const repo = join(workspaceRoot, 'repo');
  await mkdir(repo, { recursive: true });
  await git(repo, 'init', '-q', '-b', 'main');
  await writeFile(join(repo, 'a.txt'), 'a\n');
  await git(repo, 'add', '--', 'a.txt');
  await git(repo, 'commit', '-q', '-m', 'initial');
  const sandboxing = await resolveServerSandboxing({ unsandboxed: false, dataDir, workspaceRoot, warn: () => {} });
  const runner = new GitRunner({ sandboxing, workspaceRoot });
  cleanups.push(async () => {
    await runner.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { runner, workspaceRoot, repo };
}

/** The git commands opening the repository of `directory` runs, and what the opened repository says of HEAD. */
async function openingCommands(runner: GitRunner, directory: string): Promise<{ commands: string[]; head?: string }> {
  const spy = vi.spyOn(runner, 'run');
  try {
    return await withGitRepository(runner, directory, async (repository) => {
      const commands = spy.mock.calls.map(([, args]) => args.find((arg) => !arg.startsWith('-')) ?? '');
      return { commands, head: (await repository.git(['rev-parse', '--symbolic-full-name', 'HEAD'])).trim() };
    });
  } finally {
    spy.mockRestore();
  }
}

describe('opening a repository', () => {
  it('runs two git commands, whether HEAD is a branch, detached, or the repository is bare', async () => {
    const { runner, workspaceRoot, repo } = await setUp();
    const bare = join(workspaceRoot, 'bare.git');
    await git(workspaceRoot, 'clone', '-q', '--bare', repo, bare);
    const detached = join(workspaceRoot, 'detached');
    await git(workspaceRoot, 'clone', '-q', repo, detached);
    await git(detached, 'checkout', '-q', '--detach', 'HEAD');

    expect(await openingCommands(runner, repo)).toEqual({ commands: ['rev-parse', 'config'], head: 'refs/heads/main' });
    expect(await openingCommands(runner, bare)).toEqual({ commands: ['rev-parse', 'config'], head: 'refs/heads/main' });
    expect(await openingCommands(runner, detached)).toEqual({ commands: ['rev-parse', 'config'], head: 'HEAD' });
  });
});
