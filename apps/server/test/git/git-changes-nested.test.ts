import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initRepository, query, useGitServer, write } from './git-fixture.js';

const servers = useGitServer();

describe('GET /api/git/changes with repositories inside the one asked about', () => {
  it("lists the outer repository's own changes beside a nested one's, and skips a nested directory that is no repository", async () => {
    const { server, root } = await servers.start();
    const outer = join(root, 'outer');
    await initRepository(outer, { 'top.txt': 'top\n', 'inner-notes.txt': 'notes\n' });
    await write(outer, 'top.txt', 'changed top\n');
    await write(outer, 'inner-notes.txt', 'changed notes\n');
    await initRepository(join(outer, 'inner'), { 'a.txt': 'a\n' });
    await write(join(outer, 'inner'), 'a.txt', 'changed\n');
    // A `.git` file naming no git directory: git refuses the directory (its files are the outer repository's).
    await write(outer, 'broken/.git', 'gitdir: nowhere\n');
    await write(outer, 'broken/file.txt', 'x\n');
    // An empty `.git` directory is no repository to git, which goes on to the outer one.
    await mkdir(join(outer, 'hollow', '.git'), { recursive: true });
    await write(outer, 'hollow/file.txt', 'y\n');

    const answer = await server.call('GET', query('/api/git/changes', { path: outer, ref: 'HEAD' }));

    expect(answer).toEqual({
      status: 200,
      json: [
        { status: 'ADDED', path: 'broken/file.txt' },
        { status: 'UPDATED', path: 'inner-notes.txt' },
        { status: 'UPDATED', path: 'inner/a.txt' },
        { status: 'ADDED', path: 'hollow/file.txt' },
        { status: 'UPDATED', path: 'top.txt' },
      ].sort((one, other) => (one.path < other.path ? -1 : 1)),
    });
  });
});
