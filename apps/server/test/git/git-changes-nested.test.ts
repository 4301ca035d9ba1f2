import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, initRepository, query, useGitServer, write } from './git-fixture.js';

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

  it('names, in a header, each nested repository git failed on, whose changes the answer therefore lacks', async () => {
    const { server, root } = await servers.start();
    const outer = join(root, 'outer');
    await initRepository(outer, { 'top.txt': 'top\n' });
    await write(outer, 'top.txt', 'changed top\n');
    await initRepository(join(outer, 'fine'), { 'a.txt': 'a\n' });
    await write(join(outer, 'fine'), 'a.txt', 'changed\n');
    // Two repositories whose index is damaged: git fails listing their changes.
    for (const name of ['damaged', 'damaged, too']) {
      await initRepository(join(outer, name), { 'b.txt': 'b\n' });
      await writeFile(join(outer, name, '.git', 'index'), 'not an index');
    }
    const url = `${server.url}${query('/api/git/changes', { path: outer, ref: 'HEAD' })}`;

    const answer = await fetch(url);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-git-unreadable-repositories')).toBe('damaged,damaged%2C%20too');
    const changes = (await answer.json()) as Array<{ status: string; path: string }>;
    expect(changes.filter(({ path }) => !path.startsWith('damaged'))).toEqual([
      { status: 'UPDATED', path: 'fine/a.txt' },
      { status: 'UPDATED', path: 'top.txt' },
    ]);

    // Once they can be read, the header is gone and their changes are listed.
    for (const name of ['damaged', 'damaged, too']) await git(join(outer, name), 'read-tree', 'HEAD');
    await write(join(outer, 'damaged'), 'b.txt', 'changed\n');
    const repaired = await fetch(url);
    expect(repaired.headers.has('x-git-unreadable-repositories')).toBe(false);
    expect(await repaired.json()).toEqual([
      { status: 'UPDATED', path: 'damaged/b.txt' },
      { status: 'UPDATED', path: 'fine/a.txt' },
      { status: 'UPDATED', path: 'top.txt' },
    ]);
  });

  it('keeps the outer answer and names no repository for a nested directory that is no repository of its own', async () => {
    const { server, root } = await servers.start();
    const outer = join(root, 'outer');
    await initRepository(outer, { 'top.txt': 'top\n' });
    await write(outer, 'broken/.git', 'gitdir: nowhere\n');
    await mkdir(join(outer, 'hollow', '.git'), { recursive: true });

    const answer = await fetch(`${server.url}${query('/api/git/changes', { path: outer, ref: 'HEAD' })}`);

    expect(answer.status).toBe(200);
    expect(answer.headers.has('x-git-unreadable-repositories')).toBe(false);
  });
});
