import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git, initRepository, query, useGitServer, write } from './git-fixture.js';

const servers = useGitServer();

describe('GET /api/git/changes', () => {
  it('lists added, updated, deleted and renamed files against HEAD, untracked ones as ADDED, sorted by path', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, {
      'kept.txt': 'kept\n',
      'edited.txt': 'one\n',
      'doomed.txt': 'bye\n',
      'old name.txt': 'moving content\n',
    });
    await write(repo, 'edited.txt', 'two\n');
    await rm(join(repo, 'doomed.txt'));
    await rename(join(repo, 'old name.txt'), join(repo, 'new name.txt'));
    await git(repo, 'add', '-A', '--', 'old name.txt', 'new name.txt');
    await write(repo, 'src/fresh.ts', 'export {};\n');

    const answer = await server.call('GET', query('/api/git/changes', { path: repo, ref: 'HEAD' }));

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([
      { status: 'DELETED', path: 'doomed.txt' },
      { status: 'UPDATED', path: 'edited.txt' },
      { status: 'ADDED', path: 'new name.txt' },
      { status: 'DELETED', path: 'old name.txt' },
      { status: 'ADDED', path: 'src/fresh.ts' },
    ]);
  });

  it('compares against the upstream branch it detects, so committed but unpushed work shows', async () => {
    const { server, root } = await servers.start();
    const upstream = join(root, 'upstream');
    await initRepository(upstream, { 'base.txt': 'base\n' });
    const clone = join(root, 'clone');
    await git(root, 'clone', '-q', upstream, clone);
    await commitFiles(clone, { 'committed.txt': 'local work\n' }, 'local commit');
    await write(clone, 'base.txt', 'edited\n');

    const detected = await server.call('GET', query('/api/git/changes', { path: clone }));
    const againstHead = await server.call('GET', query('/api/git/changes', { path: clone, ref: 'HEAD' }));

    expect(detected).toEqual({
      status: 200,
      json: [
        { status: 'UPDATED', path: 'base.txt' },
        { status: 'ADDED', path: 'committed.txt' },
      ],
    });
    expect(againstHead).toEqual({ status: 200, json: [{ status: 'UPDATED', path: 'base.txt' }] });
  });

  it('shows untracked files of a repository without commits as ADDED, and the changes of a nested repository', async () => {
    const { server, root } = await servers.start();
    const outer = join(root, 'outer');
    await initRepository(outer, { 'top.txt': 'top\n' });
    await initRepository(join(outer, 'inner'), { 'a.txt': 'a\n' });
    await write(join(outer, 'inner'), 'a.txt', 'changed\n');
    const fresh = join(root, 'fresh');
    await git(root, 'init', '-q', fresh);
    await write(fresh, 'untracked.txt', 'new\n');

    expect(await server.call('GET', query('/api/git/changes', { path: fresh, ref: 'HEAD' }))).toEqual({
      status: 200,
      json: [{ status: 'ADDED', path: 'untracked.txt' }],
    });
    expect(await server.call('GET', query('/api/git/changes', { path: outer, ref: 'HEAD' }))).toEqual({
      status: 200,
      json: [{ status: 'UPDATED', path: 'inner/a.txt' }],
    });
  });

  it('answers an empty list for a directory in no repository, and 400 for a ref that names no commit', async () => {
    const { server, root } = await servers.start();
    const plain = join(root, 'plain');
    await write(plain, 'file.txt', 'x\n');
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });

    expect(await server.call('GET', query('/api/git/changes', { path: plain }))).toEqual({ status: 200, json: [] });
    const unknown = await server.call('GET', query('/api/git/changes', { path: repo, ref: 'no-such-branch' }));
    expect(unknown.status).toBe(400);
    expect((unknown.json as { detail: string }).detail).toContain("ref 'no-such-branch' does not name a commit");
  });
});
