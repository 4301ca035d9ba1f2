import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxSupport } from '@x/agent';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers.js';
import { git, initRepository, query, useGitServer, write } from './git-fixture.js';

// A repository in the workspace can name a work tree or a git directory elsewhere (`core.worktree`, or a `.git`
// file's `gitdir:`). git would then read outside the workspace root: the routes refuse such a repository as they
// refuse a path outside it (403), sandboxed or not.
const servers = useGitServer();
const outsideDirs: string[] = [];
afterEach(async () => {
  for (const dir of outsideDirs.splice(0)) await removeDir(dir);
});

function missingBwrapProbe(): Promise<SandboxSupport> {
  return new Promise((resolve) => {
    execFile('/nonexistent/bwrap', ['--version'], (error) => {
      resolve({ available: false, reason: `bubblewrap could not run: ${error?.message ?? 'no error'}` });
    });
  });
}

/** A directory outside the workspace holding a repository with a committed and an untracked secret. */
async function outsideRepository(): Promise<string> {
  const dir = await tempDir();
  outsideDirs.push(dir);
  const repo = join(dir, 'secret-repo');
  await initRepository(repo, { 'secret.txt': 'committed secret\n' });
  await write(repo, 'untracked-secret.txt', 'untracked secret\n');
  return repo;
}

const MODES: Array<{ mode: string; sandboxed: boolean; options: Parameters<typeof servers.start>[0] }> = [
  { mode: 'sandboxed', sandboxed: true, options: {} },
  {
    mode: 'unsandboxed',
    sandboxed: false,
    options: { build: { sandboxProbe: missingBwrapProbe }, config: { unsandboxed: true } },
  },
];

describe.each(MODES)('the git routes ($mode)', ({ sandboxed, options }) => {
  it('refuse a repository whose core.worktree lies outside (403), and ignore one set through an include', async () => {
    const { server, root } = await servers.start(options);
    const outside = await outsideRepository();
    const direct = join(root, 'direct');
    await initRepository(direct, { 'a.txt': 'a\n' });
    await git(direct, 'config', 'core.worktree', outside);
    const included = join(root, 'included');
    await initRepository(included, { 'a.txt': 'a\n' });
    await writeFile(join(included, 'extra.cfg'), `[core]\n\tworktree = ${outside}\n`);
    await git(included, 'config', 'include.path', join(included, 'extra.cfg'));
    // A directory the sandbox shows too (read-only), outside the workspace all the same.
    const system = join(root, 'system');
    await initRepository(system, { 'a.txt': 'a\n' });
    await git(system, 'config', 'core.worktree', '/etc');

    for (const route of ['/api/git/changes', '/api/git/commits']) {
      const refused = await server.call('GET', query(route, { path: system, ref: 'HEAD' }));
      expect({ route, status: refused.status }).toEqual({ route, status: 403 });
      const answer = await server.call('GET', query(route, { path: direct, ref: 'HEAD' }));
      // The sandbox does not show the outside directory: git fails on the work tree it cannot find (a broken
      // repository, not none: 400 with git's message), and the answer says nothing of where it is.
      if (sandboxed)
        expect({ route, status: answer.status, json: answer.json }).toEqual({
          route,
          status: 400,
          json: {
            detail:
              'Git command failed: git rev-parse --path-format=absolute --git-dir --git-common-dir --show-toplevel: ' +
              "fatal: Invalid path '<server path>': No such file or directory",
          },
        });
      else expect({ route, status: answer.status }).toEqual({ route, status: 403 });
    }
    // git takes core.worktree from the repository's own file only: the work tree stays the repository's directory.
    expect(await server.call('GET', query('/api/git/changes', { path: included, ref: 'HEAD' }))).toEqual({
      status: 200,
      json: [{ status: 'ADDED', path: 'extra.cfg' }],
    });
  });

  it('refuse a work tree whose .git file names a git directory outside (403; no repository where git cannot see it)', async () => {
    const { server, root } = await servers.start(options);
    const outside = await outsideRepository();
    const head = (await git(outside, 'rev-parse', 'HEAD')).trim();
    const decoy = join(root, 'decoy');
    await write(decoy, 'secret.txt', 'in the workspace\n');
    await writeFile(join(decoy, '.git'), `gitdir: ${join(outside, '.git')}\n`);

    const calls = [
      query('/api/git/changes', { path: decoy, ref: 'HEAD' }),
      query('/api/git/diff', { path: join(decoy, 'secret.txt') }),
      query('/api/git/diff', { path: join(decoy, 'secret.txt'), commit: head }),
      query('/api/git/commits', { path: decoy }),
      query(`/api/git/commits/${head}/changes`, { path: decoy }),
    ];
    for (const call of calls) {
      const answer = await server.call('GET', call);
      if (sandboxed)
        expect({ call, status: answer.status, secret: JSON.stringify(answer.json).includes('secret') }).toEqual({
          call,
          status: 200,
          secret: false,
        });
      else expect({ call, status: answer.status }).toEqual({ call, status: 403 });
    }
  });
});
