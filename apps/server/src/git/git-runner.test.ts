import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { type FileHandle, mkdir, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDefaultSandbox, SandboxUnavailableError } from '@x/agent';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveServerSandboxing } from '../sandboxing/server-sandboxing.js';
import { GitCommandError } from './git-command-error.js';
import { writeGitDirectorySnapshot } from './git-directory-snapshot.js';
import { withGitRepository } from './git-repository.js';
import { GitRunner } from './git-runner.js';
import { GitTimeoutError } from './git-timeout-error.js';

const run = promisify(execFile);
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A runner over a fresh workspace holding one repository with a 4 KiB file committed, in the real sandbox. */
async function setUp(options: {
  outputBytes?: number;
  temporaryDirectory?: string;
  timeoutMs?: number;
  /** The server data directory the runner hides in git's text (none by default). */
  dataDir?: string;
  open?: Parameters<typeof resolveServerSandboxing>[0]['open'];
}): Promise<{ runner: GitRunner; repo: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'x-git-runner-'));
  const workspaceRoot = join(dataDir, 'workspaces');
  const repo = join(workspaceRoot, 'repo');
  await mkdir(repo, { recursive: true });
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  await run('git', ['init', '-q'], { cwd: repo, env });
  await writeFile(join(repo, 'big.txt'), 'x'.repeat(4096));
  const { open, ...runnerOptions } = options;
  const sandboxing = await resolveServerSandboxing({
    unsandboxed: false,
    dataDir,
    workspaceRoot,
    warn: () => {},
    ...(open === undefined ? {} : { open }),
  });
  const runner = new GitRunner({ sandboxing, workspaceRoot, ...runnerOptions });
  cleanups.push(async () => {
    await runner.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { runner, repo };
}

describe('GitRunner', () => {
  it("hides the server's data directory in git's text whole, a blank in its name included", async () => {
    const { runner } = await setUp({ dataDir: '/srv/x data' });
    expect(await runner.hidePaths('fatal: cannot read /srv/x data/conversations/abc: denied')).toBe(
      'fatal: cannot read <server path>: denied',
    );
  });

  it('fails a command that prints past the output cap, instead of keeping its output', async () => {
    const { runner, repo } = await setUp({ outputBytes: 1024 });
    // A short output comes back whole.
    await expect(runner.runOrThrow(repo, ['hash-object', '--', 'big.txt'])).resolves.toMatch(/^[0-9a-f]{40}\n$/);
    const failure = await runner
      .runOrThrow(repo, ['diff', '--no-index', '--no-ext-diff', '--', '/dev/null', 'big.txt'])
      .catch((error: unknown) => error);
    expect(GitCommandError.isInstance(failure)).toBe(true);
    expect((failure as GitCommandError).message).toContain('printed more than the output limit');
  });

  it('gives a nonzero exit in the result from run, and as a GitCommandError with its stderr from runOrThrow', async () => {
    const { runner, repo } = await setUp({});
    const result = await runner.run(repo, ['rev-parse', '--verify', '--quiet', 'no-such-ref']);
    expect(result.exitCode).toBe(1);
    const failure = await runner
      .runOrThrow(repo, ['rev-parse', '--verify', 'no-such-ref'])
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitCommandError);
    expect((failure as GitCommandError).exitCode).toBe(128);
    expect((failure as GitCommandError).message).toContain('Needed a single revision');
  });

  it('opens the sandbox again at the next command when opening it failed, and keeps one that opened', async () => {
    const failure = new SandboxUnavailableError('the first open fails');
    let opens = 0;
    const { runner, repo } = await setUp({
      open: async (request) => {
        opens += 1;
        if (opens === 1) throw failure;
        return openDefaultSandbox(request);
      },
    });

    await expect(runner.run(repo, ['--version'])).rejects.toBe(failure);
    await expect(runner.runOrThrow(repo, ['--version'])).resolves.toMatch(/^git version /);
    await expect(runner.runOrThrow(repo, ['--version'])).resolves.toMatch(/^git version /);
    expect(opens).toBe(2);
  });

  it('runs nothing once closed', async () => {
    const { runner, repo } = await setUp({});
    await runner.close();
    await expect(runner.run(repo, ['--version'])).rejects.toThrow('the server is shutting down');
  });

  it('leaves no snapshot behind when it closes while a request is writing one', async () => {
    const temporaryDirectory = await mkdtemp(join(tmpdir(), 'x-git-runner-temporary-'));
    cleanups.push(() => rm(temporaryDirectory, { recursive: true, force: true }));
    const { runner, repo } = await setUp({ temporaryDirectory });
    const snapshot = await runner.snapshotDirectory();
    await runner.close();

    const gitDirectory = join(repo, '.git');
    const location = { gitDirectory, commonDirectory: gitDirectory };
    const writing = writeGitDirectorySnapshot(snapshot, { location, configuration: '', head: 'ref: refs/heads/main' });

    await expect(writing).rejects.toThrow('ENOENT');
    expect(await readdir(temporaryDirectory)).toEqual([]);
    await expect(runner.snapshotDirectory()).rejects.toThrow('the server is shutting down');
  });

  it('kills a command still running at its time limit, with all it started, and throws GitTimeoutError', async () => {
    // The runner's limit, and a repository's command given its own (its repository opened within the default).
    const limited = await setUp({ timeoutMs: 300 });
    const unlimited = await setUp({});
    const cases = [
      { repo: limited.repo, blocked: () => limited.runner.run(limited.repo, ['hash-object', '--', 'blocking']) },
      {
        repo: unlimited.repo,
        blocked: () =>
          withGitRepository(unlimited.runner, unlimited.repo, (repository) =>
            repository.git(['hash-object', '--', 'blocking'], { timeoutMs: 300 }),
          ),
      },
    ];
    for (const { repo, blocked } of cases) {
      // git opens a FIFO no one writes to: it blocks until it is killed, however fast or slow the machine is.
      const fifo = join(repo, 'blocking');
      await run('mkfifo', [fifo]);
      const failure = await blocked().catch((error: unknown) => error);
      expect(GitTimeoutError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({ code: 'git_command', exitCode: -1, timeoutMs: 300 });
      // The command's own arguments, never the server's snapshot (`--git-dir=...`) of a repository's command.
      expect((failure as GitTimeoutError).message).toBe(
        'Git command timed out: git hash-object -- blocking: it ran past its time limit of 300 ms and was killed',
      );
      // Killed, not left behind: the FIFO comes to have no reader (opening it to write without one fails, ENXIO).
      await vi.waitFor(
        async () => {
          const opened = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch((error: unknown) => error);
          if (!(opened instanceof Error)) await (opened as FileHandle).close();
          expect((opened as NodeJS.ErrnoException).code).toBe('ENXIO');
        },
        { timeout: 30_000, interval: 50 },
      );
    }
  });
});
