import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer, tempDir } from '../helpers.js';
import { initRepository, query } from './git-fixture.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server making its git snapshots in a temporary directory of the test's, its workspace root, and that directory. */
async function startServer(): Promise<{ server: TestServer; root: string; temporaryDirectory: string }> {
  const temporaryDirectory = await tempDir();
  cleanups.push(() => removeDir(temporaryDirectory));
  const server = await startTestServer({ build: { gitTemporaryDirectory: temporaryDirectory } });
  cleanups.push(async () => {
    await server.stop();
    await removeDir(server.dataDir);
  });
  return { server, root: join(server.dataDir, 'workspaces'), temporaryDirectory };
}

describe('a git route after a directory of the server was deleted under it', () => {
  it('makes a new directory of snapshots when its own was deleted, and answers as before', async () => {
    const { server, root, temporaryDirectory } = await startServer();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });
    const first = await server.call('GET', query('/api/git/commits', { path: repo }));
    expect(first.status).toBe(200);
    const [own] = await readdir(temporaryDirectory);
    await rm(join(temporaryDirectory, own as string), { recursive: true });

    const answer = await server.call('GET', query('/api/git/commits', { path: repo }));

    expect(answer).toEqual(first);
  });

  it('answers 409 git_workspace_gone when the workspace root was deleted, and makes no empty root again', async () => {
    const { server, root } = await startServer();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });
    expect((await server.call('GET', query('/api/git/changes', { path: repo }))).status).toBe(200);
    await rm(root, { recursive: true });
    const gone = { detail: `The server's workspace root ${root} has been deleted`, code: 'git_workspace_gone' };

    for (const route of ['/api/git/changes', '/api/git/commits', '/api/git/commits/abcd/changes']) {
      expect(await server.call('GET', query(route, { path: repo })), route).toEqual({ status: 409, json: gone });
    }
    expect(await server.call('GET', query('/api/git/diff', { path: join(repo, 'a.txt') }))).toEqual({
      status: 409,
      json: gone,
    });
    // The shell routes refuse alike (their own code), and none of these made the root again.
    for (const route of ['/api/bash/execute_bash_command', '/api/bash/start_bash_command']) {
      expect(await server.call('POST', route, { command: 'true' }), route).toEqual({
        status: 409,
        json: { detail: `The server's workspace root ${root} has been deleted`, code: 'workspace_gone' },
      });
    }
    await expect(stat(root)).rejects.toThrow('ENOENT');
  });
});
