import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git, initRepository, query, useGitServer, write } from './git-fixture.js';

// Which base GET /api/git/changes compares against when no ref is given (the reference's display policy).
const servers = useGitServer();

/** An upstream on `main` and a clone of it on branch `feature` with one committed file. */
async function cloneWithFeature(root: string): Promise<{ upstream: string; clone: string }> {
  const upstream = join(root, 'upstream');
  await initRepository(upstream, { 'base.txt': 'base\n' });
  const clone = join(root, 'clone');
  await git(root, 'clone', '-q', upstream, clone);
  await git(clone, 'checkout', '-q', '-b', 'feature');
  await commitFiles(clone, { 'feature.txt': 'feature work\n' }, 'feature');
  return { upstream, clone };
}

describe('the auto-detected base of the changes', () => {
  it('skips a fully pushed branch its own upstream while clean, and keeps it once the tracked tree is dirty', async () => {
    const { server, root } = await servers.start();
    const { clone } = await cloneWithFeature(root);
    await git(clone, 'push', '-q', 'origin', 'feature');

    expect(await server.call('GET', query('/api/git/changes', { path: clone }))).toEqual({
      status: 200,
      json: [{ status: 'ADDED', path: 'feature.txt' }],
    });
    await write(clone, 'base.txt', 'edited\n');
    expect(await server.call('GET', query('/api/git/changes', { path: clone }))).toEqual({
      status: 200,
      json: [{ status: 'UPDATED', path: 'base.txt' }],
    });
  });

  it("uses the fork point with origin's default branch, not its tip, and not a local main", async () => {
    const { server, root } = await servers.start();
    const { upstream, clone } = await cloneWithFeature(root);
    // origin/main moves on after the fork, and no local main is left to fall back to.
    await commitFiles(upstream, { 'later.txt': 'landed upstream later\n' }, 'later');
    await git(clone, 'fetch', '-q', 'origin');
    await git(clone, 'branch', '-q', '-D', 'main');

    expect(await server.call('GET', query('/api/git/changes', { path: clone }))).toEqual({
      status: 200,
      json: [{ status: 'ADDED', path: 'feature.txt' }],
    });
  });

  it("uses the fork point with origin's default branch of a one-letter name", async () => {
    const { server, root } = await servers.start();
    const upstream = join(root, 'upstream');
    await initRepository(upstream, { 'base.txt': 'base\n' });
    await git(upstream, 'branch', '-q', '-m', 'main', 'm');
    const clone = join(root, 'clone');
    await git(root, 'clone', '-q', upstream, clone);
    await git(clone, 'checkout', '-q', '-b', 'feature');
    await git(clone, 'branch', '-q', '-D', 'm');
    await commitFiles(clone, { 'feature.txt': 'feature work\n' }, 'feature');

    expect(await server.call('GET', query('/api/git/changes', { path: clone }))).toEqual({
      status: 200,
      json: [{ status: 'ADDED', path: 'feature.txt' }],
    });
  });

  it('uses the tip of an unrelated origin default branch when there is no fork point', async () => {
    const { server, root } = await servers.start();
    const other = join(root, 'other');
    await initRepository(other, { 'other.txt': 'unrelated history\n' });
    const repo = join(root, 'repo');
    await initRepository(repo, { 'mine.txt': 'mine\n' });
    await git(repo, 'remote', 'add', 'origin', other);
    await git(repo, 'fetch', '-q', 'origin');
    await git(repo, 'remote', 'set-head', 'origin', 'main');
    await git(repo, 'checkout', '-q', '-b', 'work');

    expect(await server.call('GET', query('/api/git/changes', { path: repo }))).toEqual({
      status: 200,
      json: [
        { status: 'ADDED', path: 'mine.txt' },
        { status: 'DELETED', path: 'other.txt' },
      ],
    });
  });

  it('without a remote, uses the fork point with a local main for another branch, and HEAD on main itself', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'base.txt': 'base\n' });
    await git(repo, 'checkout', '-q', '-b', 'work');
    await commitFiles(repo, { 'committed.txt': 'work\n' }, 'work');

    expect(await server.call('GET', query('/api/git/changes', { path: repo }))).toEqual({
      status: 200,
      json: [{ status: 'ADDED', path: 'committed.txt' }],
    });
    await git(repo, 'checkout', '-q', 'main');
    await commitFiles(repo, { 'on-main.txt': 'main\n' }, 'on main');
    await write(repo, 'base.txt', 'dirty\n');
    expect(await server.call('GET', query('/api/git/changes', { path: repo }))).toEqual({
      status: 200,
      json: [{ status: 'UPDATED', path: 'base.txt' }],
    });
  });

  it('without a remote or a main, uses the fork point with a local master', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'base.txt': 'base\n' });
    await git(repo, 'branch', '-q', '-m', 'main', 'master');
    await git(repo, 'checkout', '-q', '-b', 'work');
    await commitFiles(repo, { 'committed.txt': 'work\n' }, 'work');

    expect(await server.call('GET', query('/api/git/changes', { path: repo }))).toEqual({
      status: 200,
      json: [{ status: 'ADDED', path: 'committed.txt' }],
    });
  });

  it("compares a detached HEAD with its fork point from origin's default branch, not that branch's later tip", async () => {
    const { server, root } = await servers.start();
    const upstream = join(root, 'upstream');
    await initRepository(upstream, { 'base.txt': 'base\n' });
    await commitFiles(upstream, { 'later.txt': 'later upstream work\n' }, 'later');
    const clone = join(root, 'clone');
    await git(root, 'clone', '-q', upstream, clone);
    await git(clone, 'checkout', '-q', '--detach', 'HEAD~1');
    await write(clone, 'base.txt', 'edited\n');

    expect(await server.call('GET', query('/api/git/changes', { path: clone }))).toEqual({
      status: 200,
      json: [{ status: 'UPDATED', path: 'base.txt' }],
    });
  });
});
