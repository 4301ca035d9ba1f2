import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git, initRepository, query, useGitServer, write } from './git-fixture.js';

const servers = useGitServer();
const MAX = 1024 * 1024;

describe('GET /api/git/diff at its edges', () => {
  it('shows a file of exactly 1 MiB on both sides, and a work tree file that is not UTF-8 as empty', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'edge.txt': 'b'.repeat(MAX) });
    await writeFile(join(repo, 'edge.txt'), 'a'.repeat(MAX));
    await writeFile(join(repo, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));

    const edge = await server.call('GET', query('/api/git/diff', { path: join(repo, 'edge.txt'), ref: 'HEAD' }));
    expect(edge.status).toBe(200);
    expect(edge.json).toEqual({ modified: 'a'.repeat(MAX), original: 'b'.repeat(MAX) });
    const latin1 = await server.call('GET', query('/api/git/diff', { path: join(repo, 'latin1.txt'), ref: 'HEAD' }));
    expect(latin1).toEqual({ status: 200, json: { modified: '', original: '' } });
  });

  it('reads a file in a subdirectory against its path from the top of the repository', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'deep/er/file.txt': 'committed\n', 'file.txt': 'top\n' });
    await write(repo, 'deep/er/file.txt', 'edited\n');

    expect(
      await server.call('GET', query('/api/git/diff', { path: join(repo, 'deep/er/file.txt'), ref: 'HEAD' })),
    ).toEqual({
      status: 200,
      json: { modified: 'edited', original: 'committed' },
    });
  });
});

describe('GET /api/git/commits/{sha}/changes and diff at a commit, at the ends of history', () => {
  it('compares a root commit with the empty tree, and a merge commit with its first parent', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const first = (await git(repo, 'rev-parse', 'HEAD')).trim();
    await git(repo, 'checkout', '-q', '-b', 'side');
    await commitFiles(repo, { 'side.txt': 'side\n' }, 'on side');
    await git(repo, 'checkout', '-q', 'main');
    await commitFiles(repo, { 'a.txt': 'main\n' }, 'on main');
    await git(repo, 'merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    const merge = (await git(repo, 'rev-parse', 'HEAD')).trim();

    expect(await server.call('GET', query(`/api/git/commits/${first}/changes`, { path: repo }))).toEqual({
      status: 200,
      json: [
        { status: 'ADDED', path: 'a.txt' },
        { status: 'ADDED', path: 'b.txt' },
      ],
    });
    expect(await server.call('GET', query('/api/git/diff', { path: join(repo, 'a.txt'), commit: first }))).toEqual({
      status: 200,
      json: { modified: 'a', original: '' },
    });
    // Against the first parent (main), the merge brought side.txt only; against the second it would be a.txt.
    expect(await server.call('GET', query(`/api/git/commits/${merge}/changes`, { path: repo }))).toEqual({
      status: 200,
      json: [{ status: 'ADDED', path: 'side.txt' }],
    });
    expect(await server.call('GET', query('/api/git/diff', { path: join(repo, 'side.txt'), commit: merge }))).toEqual({
      status: 200,
      json: { modified: 'side', original: '' },
    });
  });
});
