import { appendFile, mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer, tempDir } from '../helpers.js';
import { commitFiles, git, initRepository, query } from './git-fixture.js';

// A failure a git route answers with never names a path of the server's outside the workspace: not its snapshots
// nor the directory they are made in (`gitTemporaryDirectory`), whether git's stderr or a Node error names them.
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server making its git snapshots in `temporaryDirectory`, and the root of its workspace. */
async function startServer(temporaryDirectory: string): Promise<{ server: TestServer; root: string }> {
  const server = await startTestServer({ build: { gitTemporaryDirectory: temporaryDirectory } });
  cleanups.push(async () => {
    await server.stop();
    await removeDir(server.dataDir);
  });
  const root = join(server.dataDir, 'workspaces');
  await mkdir(root, { recursive: true });
  return { server, root };
}

/** A repository of two commits whose first commit's object is empty on disk, so that `git log` fails reading it. */
async function repositoryWithDamagedHistory(repo: string): Promise<void> {
  await initRepository(repo, { 'a.txt': 'a\n' });
  const first = (await git(repo, 'rev-parse', 'HEAD')).trim();
  await commitFiles(repo, { 'a.txt': 'b\n' }, 'second');
  await writeFile(join(repo, '.git', 'objects', first.slice(0, 2), first.slice(2)), '');
}

describe('a git route failure', () => {
  it("answers git's message without the path of the server's snapshots that git's stderr names", async () => {
    const temporaryDirectory = await tempDir();
    cleanups.push(() => removeDir(temporaryDirectory));
    const { server, root } = await startServer(temporaryDirectory);
    const repo = join(root, 'repo');
    await repositoryWithDamagedHistory(repo);
    // A first answer makes the server's directory of snapshots.
    expect((await server.call('GET', query('/api/git/changes', { path: repo, ref: 'HEAD' }))).status).toBe(200);
    const [own] = await readdir(temporaryDirectory);
    const snapshotRoot = join(temporaryDirectory, own as string);
    // The repository names a directory of alternate objects there: git's stderr names it as it fails.
    await writeFile(join(repo, '.git', 'objects', 'info', 'alternates'), `${snapshotRoot}/elsewhere/objects\n`);

    const answer = await server.call('GET', query('/api/git/commits', { path: repo }));

    expect(answer.status).toBe(400);
    const detail = (answer.json as { detail: string }).detail;
    expect(detail).toMatch(/^Git command failed: git log /);
    expect(detail).toContain('unable to normalize alternate object path: <server path>');
    expect(detail).not.toContain(temporaryDirectory);
    expect(detail).not.toContain('x-git-snapshots-');
    // What is in the workspace is kept: the message still says which object of which repository is damaged.
    expect(detail).toContain(`object file ${await realpath(join(repo, '.git', 'objects'))}`);
  });

  it("of the server's own (no directory to make snapshots in) answers a 500 the route composes, without the path", async () => {
    const parent = await tempDir();
    cleanups.push(() => removeDir(parent));
    const temporaryDirectory = join(parent, 'not-made-yet');
    const { server, root } = await startServer(temporaryDirectory);
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });

    const answer = await server.call('GET', query('/api/git/commits', { path: repo }));

    expect(answer.status).toBe(500);
    const body = answer.json as { detail: string; exception: string; error_id: string };
    expect(body.exception).toBe(
      "GitInternalError: Git route failed: ENOENT: no such file or directory, mkdtemp '<server path>'",
    );
    expect(body.error_id).toMatch(/^[0-9a-f]{32}$/);

    // The directory is made meanwhile: the next request makes its snapshots there (a failure is not kept).
    await mkdir(temporaryDirectory);
    const next = await server.call('GET', query('/api/git/commits', { path: repo }));
    expect(next.status).toBe(200);
    expect((next.json as { commits: unknown[] }).commits).toHaveLength(1);
  });

  it('answers 400 naming git\'s stderr when git fails looking for the repository, not an empty "no repository"', async () => {
    const temporaryDirectory = await tempDir();
    cleanups.push(() => removeDir(temporaryDirectory));
    const { server, root } = await startServer(temporaryDirectory);
    const badConfig = join(root, 'bad-config');
    await initRepository(badConfig, { 'a.txt': 'a\n' });
    await appendFile(join(badConfig, '.git', 'config'), '[core\nbroken\n');
    const newerFormat = join(root, 'newer-format');
    await initRepository(newerFormat, { 'a.txt': 'a\n' });
    await git(newerFormat, 'config', 'core.repositoryformatversion', '99');
    const plain = join(root, 'plain');
    await mkdir(plain);

    for (const [repo, stderr] of [
      [badConfig, 'fatal: bad config line 6 in file .git/config'],
      [newerFormat, 'fatal: Expected git repo version <= 1, found 99'],
    ] as const) {
      for (const route of ['/api/git/changes', '/api/git/commits']) {
        const answer = await server.call('GET', query(route, { path: repo }));
        expect(answer).toEqual({
          status: 400,
          json: {
            detail: `Git command failed: git rev-parse --path-format=absolute --git-dir --git-common-dir --show-toplevel: ${stderr}`,
          },
        });
      }
    }
    // Where git finds no repository (exit code 128, "not a git repository"), the answer is still empty.
    expect(await server.call('GET', query('/api/git/changes', { path: plain }))).toEqual({ status: 200, json: [] });
  });
});
