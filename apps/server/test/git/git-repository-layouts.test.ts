import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git, initRepository, query, useGitServer, write } from './git-fixture.js';

// The routes point git at a snapshot of the repository's git directory (its configuration as it was, links to its
// refs, objects and index): repositories laid out otherwise than one `.git` directory must read the same through it.
const servers = useGitServer();

describe('the git routes on repositories of other layouts', () => {
  it("read a linked work tree's own HEAD and index, and the main repository's branches and objects", async () => {
    const { server, root } = await servers.start();
    const main = join(root, 'main');
    await initRepository(main, { 'shared.txt': 'one\n' });
    const linked = join(root, 'linked');
    await git(main, 'worktree', 'add', '-q', '-b', 'feature', linked);
    const featureCommit = await commitFiles(linked, { 'feature.txt': 'feature\n' }, 'feature work');
    await write(linked, 'shared.txt', 'two\n');
    await git(linked, 'add', '--', 'shared.txt');
    await write(main, 'shared.txt', 'main only\n');

    const changes = await server.call('GET', query('/api/git/changes', { path: linked, ref: 'main' }));
    const commits = await server.call('GET', query('/api/git/commits', { path: linked, limit: 1 }));

    expect(changes).toEqual({
      status: 200,
      json: [
        { status: 'ADDED', path: 'feature.txt' },
        { status: 'UPDATED', path: 'shared.txt' },
      ],
    });
    expect(commits.json).toMatchObject({ commits: [{ sha: featureCommit, subject: 'feature work' }], has_more: true });
  });

  it('read a detached HEAD, and list the commits of a bare repository', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });
    const first = (await git(repo, 'rev-parse', 'HEAD')).trim();
    await commitFiles(repo, { 'a.txt': 'b\n' }, 'second');
    const bare = join(root, 'bare.git');
    await git(root, 'clone', '-q', '--bare', repo, bare);
    await git(repo, 'checkout', '-q', '--detach', first);

    const detached = await server.call('GET', query('/api/git/commits', { path: repo }));
    const bareCommits = await server.call('GET', query('/api/git/commits', { path: bare }));

    expect(detached.json).toMatchObject({ commits: [{ sha: first, subject: 'initial' }], has_more: false });
    expect(bareCommits.json).toMatchObject({ commits: [{ subject: 'second' }, { sha: first }], has_more: false });
  });

  it('read a split index, and answer an empty page for a branch without commits', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });
    await git(repo, 'update-index', '--split-index');
    await write(repo, 'b.txt', 'b\n');
    await git(repo, 'add', '--', 'b.txt');
    const unborn = join(root, 'unborn');
    await git(root, 'init', '-q', '-b', 'main', unborn);

    expect(await server.call('GET', query('/api/git/changes', { path: repo, ref: 'HEAD' }))).toEqual({
      status: 200,
      json: [{ status: 'ADDED', path: 'b.txt' }],
    });
    expect(await server.call('GET', query('/api/git/commits', { path: unborn }))).toEqual({
      status: 200,
      json: { commits: [], has_more: false },
    });
  });
});
