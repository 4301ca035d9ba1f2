import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFiles, git, initRepository, query, useGitServer, write } from './git-fixture.js';

const servers = useGitServer();

describe('GET /api/git/diff', () => {
  it("gives a modified file's content now and at HEAD, and a new file's with an empty original", async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'src/app.ts': 'line one\nline two\n' });
    await write(repo, 'src/app.ts', 'line one\r\nline 2\n');
    await write(repo, 'src/new.ts', 'brand new\n');

    expect(await server.call('GET', query('/api/git/diff', { path: join(repo, 'src/app.ts'), ref: 'HEAD' }))).toEqual({
      status: 200,
      json: { modified: 'line one\nline 2', original: 'line one\nline two' },
    });
    expect(await server.call('GET', query('/api/git/diff', { path: join(repo, 'src/new.ts') }))).toEqual({
      status: 200,
      json: { modified: 'brand new', original: '' },
    });
  });

  it('answers nulls for a file in no repository, and 400 for a missing file or one past 1 MiB', async () => {
    const { server, root } = await servers.start();
    await write(root, 'plain/file.txt', 'x\n');
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });
    await writeFile(join(repo, 'big.bin'), Buffer.alloc(1024 * 1024 + 1, 0x61));

    expect(await server.call('GET', query('/api/git/diff', { path: join(root, 'plain/file.txt') }))).toEqual({
      status: 200,
      json: { modified: null, original: null },
    });
    const missing = await server.call('GET', query('/api/git/diff', { path: join(repo, 'gone.txt') }));
    expect(missing.status).toBe(400);
    expect((missing.json as { detail: string }).detail).toContain('File does not exist');
    const big = await server.call('GET', query('/api/git/diff', { path: join(repo, 'big.bin') }));
    expect(big).toEqual({
      status: 400,
      json: { detail: 'File too large for git diff: 1048577 bytes (max: 1048576 bytes)' },
    });
    // The side read from git is capped too: a file that was past the cap at the base.
    await git(repo, 'add', '--', 'big.bin');
    await git(repo, 'commit', '-q', '-m', 'big');
    await writeFile(join(repo, 'big.bin'), 'small now\n');
    const bigBefore = await server.call('GET', query('/api/git/diff', { path: join(repo, 'big.bin'), ref: 'HEAD' }));
    expect(bigBefore).toEqual({
      status: 400,
      json: { detail: 'File too large for git diff: 1048577 bytes (max: 1048576 bytes)' },
    });
  });

  it('with commit, shows a file as that commit changed it, also once deleted from disk; ref and commit together are a 400', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'doomed.txt': 'first\n' });
    const second = await commitFiles(repo, { 'doomed.txt': 'second\n' }, 'second');
    await rm(join(repo, 'doomed.txt'));

    expect(
      await server.call('GET', query('/api/git/diff', { path: join(repo, 'doomed.txt'), commit: second.slice(0, 10) })),
    ).toEqual({ status: 200, json: { modified: 'second', original: 'first' } });
    const both = await server.call(
      'GET',
      query('/api/git/diff', { path: join(repo, 'doomed.txt'), commit: second, ref: 'HEAD' }),
    );
    expect(both).toEqual({ status: 400, json: { detail: "'ref' and 'commit' are mutually exclusive" } });
    const notHex = await server.call(
      'GET',
      query('/api/git/diff', { path: join(repo, 'doomed.txt'), commit: 'HEAD~1' }),
    );
    expect(notHex.status).toBe(422);
  });
});

describe('GET /api/git/commits and /api/git/commits/{sha}/changes', () => {
  it('pages the newest commits with has_more, and lists what one commit changed against its parent', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n', 'b.txt': 'b\n' }, 'first commit');
    await commitFiles(repo, { 'a.txt': 'a2\n' }, 'second commit');
    await git(repo, 'rm', '-q', 'b.txt');
    const third = await commitFiles(repo, { 'c.txt': 'c\n' }, 'third commit');

    const page = await server.call('GET', query('/api/git/commits', { path: repo, limit: 2 }));
    expect(page.status).toBe(200);
    const { commits, has_more } = page.json as { commits: Array<Record<string, string>>; has_more: boolean };
    expect(has_more).toBe(true);
    expect(commits.map((commit) => commit.subject)).toEqual(['third commit', 'second commit']);
    expect(commits[0]).toEqual({
      sha: third,
      short_sha: third.slice(0, (commits[0]?.short_sha ?? '').length),
      subject: 'third commit',
      author: 'Test Author',
      timestamp: '2026-01-02T03:04:05+00:00',
    });
    expect((commits[0]?.short_sha ?? '').length).toBeGreaterThanOrEqual(4);
    const all = await server.call('GET', query('/api/git/commits', { path: repo, limit: 3 }));
    expect((all.json as { has_more: boolean }).has_more).toBe(false);

    expect(await server.call('GET', query(`/api/git/commits/${third}/changes`, { path: repo }))).toEqual({
      status: 200,
      json: [
        { status: 'DELETED', path: 'b.txt' },
        { status: 'ADDED', path: 'c.txt' },
      ],
    });
  });

  it('answers an empty page outside a repository, 422 for a sha that is not hex, 400 for an unknown one', async () => {
    const { server, root } = await servers.start();
    await write(root, 'plain/file.txt', 'x\n');
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });

    expect(await server.call('GET', query('/api/git/commits', { path: join(root, 'plain') }))).toEqual({
      status: 200,
      json: { commits: [], has_more: false },
    });
    expect(await server.call('GET', query('/api/git/commits/abcd/changes', { path: join(root, 'plain') }))).toEqual({
      status: 200,
      json: [],
    });
    const notHex = await server.call('GET', query('/api/git/commits/--output=x/changes', { path: repo }));
    expect(notHex.status).toBe(422);
    expect((notHex.json as { detail: Array<{ loc: string[] }> }).detail[0]?.loc).toEqual(['path', 'sha']);
    const unknown = await server.call('GET', query(`/api/git/commits/${'0'.repeat(40)}/changes`, { path: repo }));
    expect(unknown.status).toBe(400);
    const badLimit = await server.call('GET', query('/api/git/commits', { path: repo, limit: 201 }));
    expect(badLimit.status).toBe(422);
  });
});
