import { mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer, tempDir } from '../helpers.js';
import { commitFiles, git, initRepository, query, write } from './git-fixture.js';

// The routes point git at a private snapshot of the repository's git directory, in a directory of the server's
// (outside the workspace). A client never sees that directory's path, and no snapshot outlives its request.
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A server whose git routes keep their snapshots under a directory of the test's own; `stop` may be called by the
 * test (it runs once).
 */
async function startWithSnapshotsIn(): Promise<{ server: TestServer; root: string; snapshots: string }> {
  const snapshots = await tempDir();
  cleanups.push(() => removeDir(snapshots));
  const started = await startTestServer({ build: { gitTemporaryDirectory: snapshots } });
  let stopping: Promise<void> | undefined;
  const server = { ...started, stop: () => (stopping ??= started.stop()) };
  cleanups.push(async () => {
    await server.stop();
    await removeDir(started.dataDir);
  });
  const root = join(started.dataDir, 'workspaces');
  await mkdir(root, { recursive: true });
  return { server, root, snapshots };
}

/** Every entry below `directory`, as paths relative to it. */
async function entriesBelow(directory: string): Promise<string[]> {
  return (await readdir(directory, { recursive: true })).map(String).sort();
}

/** A repository of two commits whose first commit's object is empty on disk, so that `git log` fails reading it. */
async function repositoryWithDamagedHistory(root: string): Promise<{ repo: string; damaged: string }> {
  const repo = join(root, 'repo');
  await initRepository(repo, { 'a.txt': 'a\n' });
  const first = (await git(repo, 'rev-parse', 'HEAD')).trim();
  await commitFiles(repo, { 'a.txt': 'b\n' }, 'second');
  const damaged = join(repo, '.git', 'objects', first.slice(0, 2), first.slice(2));
  await writeFile(damaged, '');
  return { repo, damaged: await realpath(damaged) };
}

describe('the git routes and their snapshots of a repository', () => {
  it("answer a git failure with git's message naming the repository's own files, never the server's snapshot", async () => {
    const { server, root, snapshots } = await startWithSnapshotsIn();
    const { repo, damaged } = await repositoryWithDamagedHistory(root);

    const answer = await server.call('GET', query('/api/git/commits', { path: repo }));

    expect(answer.status).toBe(400);
    const detail = (answer.json as { detail: string }).detail;
    expect(detail).toMatch(/^Git command failed: git log /);
    expect(detail).toContain(`object file ${damaged} is empty`);
    expect(detail).not.toContain(snapshots);
    expect(detail).not.toContain('--git-dir');
  });

  it('leave no snapshot behind after answers, failures, repositories that were refused, and shutting down', async () => {
    const { server, root, snapshots } = await startWithSnapshotsIn();
    const { repo } = await repositoryWithDamagedHistory(root);
    await initRepository(join(repo, 'nested'), { 'inner.txt': 'inner\n' });
    await write(repo, 'nested/inner.txt', 'changed\n');
    const outsideWorkTree = join(root, 'outside-work-tree');
    await initRepository(outsideWorkTree, { 'x.txt': 'x\n' });
    await git(outsideWorkTree, 'config', 'core.worktree', '/etc');

    const requests = [
      query('/api/git/changes', { path: repo, ref: 'HEAD' }),
      query('/api/git/diff', { path: join(repo, 'a.txt'), ref: 'HEAD' }),
      query('/api/git/commits', { path: repo }),
      query('/api/git/changes', { path: repo, ref: 'no-such-branch' }),
      query('/api/git/commits', { path: outsideWorkTree }),
      query('/api/git/commits', { path: root }),
    ];
    const statuses: number[] = [];
    for (const request of requests) statuses.push((await server.call('GET', request)).status);

    expect(statuses).toEqual([200, 200, 400, 400, 403, 200]);
    const [own, ...others] = await readdir(snapshots);
    expect(others).toEqual([]);
    expect(own).toMatch(/^x-git-snapshots-/);
    expect(await entriesBelow(snapshots)).toEqual([own]);
    await server.stop();
    expect(await readdir(snapshots)).toEqual([]);
  });
});
