import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { XServe } from '@x/browser-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRemoteWorkspace,
  InvalidOptionError,
  RemoteAuthError,
  RemoteGitError,
  RemoteRequestError,
  RemoteRouteNotFoundError,
  RemoteWorkspacePathError,
} from '../src/index.js';
import { git, repositoryWithUnreadableNested } from './support/git.js';
import { startLoopbackProxy } from './support/loopback-proxy.js';
import { api, KEY, scriptedAgent, startServer, TEST_TIMEOUT } from './support/x-server.js';

let server: XServe;
/** A repository in the server's workspace: `a.txt` committed twice, then edited, and `new.txt` untracked. */
let repo: string;
let commits: string[];
let outside: string;

beforeAll(async () => {
  server = await startServer();
  // The server's workspace root, as a conversation working in it reports it.
  const created = (await api(server, 'POST', '/api/conversations', {
    agent: scriptedAgent([]),
    workspace: { working_dir: '.' },
  })) as { workspace: { working_dir: string } };
  repo = join(created.workspace.working_dir, 'client-git-repo');
  await mkdir(repo, { recursive: true });
  await git(repo, 'init', '-q', '-b', 'main');
  commits = [];
  for (const content of ['one\n', 'two\n']) {
    await writeFile(join(repo, 'a.txt'), content);
    await git(repo, 'add', '--', 'a.txt');
    await git(repo, 'commit', '-q', '-m', `a.txt: ${content.trim()}`);
    commits.push((await git(repo, 'rev-parse', 'HEAD')).trim());
  }
  await writeFile(join(repo, 'a.txt'), 'three\n');
  await writeFile(join(repo, 'new.txt'), 'new\n');
  outside = await mkdtemp(join(tmpdir(), 'x-client-outside-'));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (outside !== undefined) await rm(outside, { recursive: true, force: true });
});

describe('RemoteWorkspace git methods', TEST_TIMEOUT, () => {
  it('give the changes, the diff of a file, the commits and the changes of a commit, typed', async () => {
    const workspace = createRemoteWorkspace(`${server.url}/`, { apiKey: KEY });

    expect(workspace.serverUrl).toBe(server.url);
    expect(await workspace.gitChanges(repo, { ref: 'HEAD' })).toEqual([
      { status: 'UPDATED', path: 'a.txt' },
      { status: 'ADDED', path: 'new.txt' },
    ]);
    // Against the first commit, the second commit's change shows too: the ref reaches the server.
    expect(await workspace.gitChanges(repo, { ref: commits[0] })).toEqual([
      { status: 'UPDATED', path: 'a.txt' },
      { status: 'ADDED', path: 'new.txt' },
    ]);
    expect(await workspace.gitDiff(join(repo, 'a.txt'))).toEqual({ modified: 'three', original: 'two' });
    expect(await workspace.gitDiff(join(repo, 'a.txt'), { ref: commits[0] })).toEqual({
      modified: 'three',
      original: 'one',
    });
    expect(await workspace.gitDiff(join(repo, 'a.txt'), { commit: commits[1] })).toEqual({
      modified: 'two',
      original: 'one',
    });
    const page = await workspace.gitCommits(repo, { limit: 1 });
    expect(page).toEqual({
      commits: [
        {
          sha: commits[1],
          short_sha: commits[1]?.slice(0, 7),
          subject: 'a.txt: two',
          author: 'Client Test',
          timestamp: '2026-01-02T03:04:05+00:00',
        },
      ],
      has_more: true,
    });
    expect((await workspace.gitCommits(repo)).commits.map((commit) => commit.sha)).toEqual([...commits].reverse());
    expect(await workspace.gitCommitChanges(repo, commits[0] ?? '')).toEqual([{ status: 'ADDED', path: 'a.txt' }]);
  });

  it('name the nested repositories git could not read, on the answer but outside its items', async () => {
    const workspace = createRemoteWorkspace(server.url, { apiKey: KEY });
    const outer = join(repo, '..', 'client-git-nested');
    // Two nested repositories whose index is damaged: git fails listing their changes, so the server leaves them out.
    await repositoryWithUnreadableNested(outer, ['damaged', 'damaged, too']);

    const answer = await workspace.gitChanges(outer, { ref: 'HEAD' });

    expect(answer.unreadableRepositories).toEqual(['damaged', 'damaged, too']);
    // The outer repository sees the broken ones as untracked directories; its own change is there.
    expect(answer.filter(({ path }) => !path.startsWith('damaged'))).toEqual([{ status: 'UPDATED', path: 'top.txt' }]);
    // Still the plain list: the names are no item, no key, and not in its JSON.
    expect(Object.keys(answer)).toEqual(answer.map((_, index) => String(index)));
    expect(JSON.parse(JSON.stringify(answer))).toEqual([...answer]);

    // A repository read whole names none.
    expect((await workspace.gitChanges(repo, { ref: 'HEAD' })).unreadableRepositories).toEqual([]);
  });

  it('answer empty for a path in no repository, as the server does', async () => {
    const workspace = createRemoteWorkspace(server.url, { apiKey: KEY });
    const plain = join(repo, '..', 'client-git-plain');
    await mkdir(plain, { recursive: true });
    expect(await workspace.gitChanges(plain)).toEqual([]);
    expect(await workspace.gitCommits(plain)).toEqual({ commits: [], has_more: false });
  });

  it('throw a typed error for each refusal: outside path, git failure, bad key, bad option', async () => {
    const workspace = createRemoteWorkspace(server.url, { apiKey: KEY });

    const outsidePath = await workspace.gitChanges(outside).catch((error: unknown) => error);
    expect(RemoteWorkspacePathError.isInstance(outsidePath)).toBe(true);
    expect(outsidePath).toMatchObject({ path: outside, code: 'remote_workspace_path_refused' });

    const unknownRef = await workspace.gitChanges(repo, { ref: 'no-such-branch' }).catch((error: unknown) => error);
    expect(RemoteGitError.isInstance(unknownRef)).toBe(true);
    expect(unknownRef).toMatchObject({ status: 400, detail: expect.stringContaining('no-such-branch') });
    const missingFile = await workspace.gitDiff(join(repo, 'missing.txt')).catch((error: unknown) => error);
    expect(missingFile).toMatchObject({ status: 400, detail: expect.stringContaining('does not exist') });
    expect(RemoteGitError.isInstance(missingFile)).toBe(true);

    const badKey = await createRemoteWorkspace(server.url, { apiKey: 'wrong' })
      .gitCommits(repo)
      .catch((error: unknown) => error);
    expect(RemoteAuthError.isInstance(badKey)).toBe(true);

    const refusals = [
      workspace.gitCommits(repo, { limit: 0 }),
      workspace.gitCommits(repo, { limit: 201 }),
      workspace.gitCommits(repo, { limit: 1.5 }),
      workspace.gitCommitChanges(repo, '../../conversations'),
      workspace.gitDiff(join(repo, 'a.txt'), { ref: 'HEAD', commit: commits[0] ?? '' }),
    ];
    for (const refusal of refusals) {
      const error = await refusal.catch((caught: unknown) => caught);
      expect(InvalidOptionError.isInstance(error)).toBe(true);
    }
    // The bounds themselves are accepted.
    expect((await workspace.gitCommits(repo, { limit: 200 })).commits).toHaveLength(2);
  });

  it('throw RemoteGitError (409, git_workspace_gone) once the server’s workspace root was deleted', async () => {
    // A server of its own: the one of the other tests keeps its root.
    const own = await startServer();
    try {
      const created = (await api(own, 'POST', '/api/conversations', {
        agent: scriptedAgent([]),
        workspace: { working_dir: '.' },
      })) as { workspace: { working_dir: string } };
      // The conversation's own directory, `<root>/<id>`: its parent is the server's workspace root.
      const root = dirname(created.workspace.working_dir);
      const workspace = createRemoteWorkspace(own.url, { apiKey: KEY });
      expect(await workspace.gitChanges(root)).toEqual([]);
      await rm(root, { recursive: true });

      const gone = await workspace.gitChanges(root).catch((error: unknown) => error);

      expect(RemoteGitError.isInstance(gone)).toBe(true);
      expect(gone).toMatchObject({
        status: 409,
        serverCode: 'git_workspace_gone',
        detail: expect.stringContaining('has been deleted'),
      });
      // A 409 without that code (a gateway's) is no git failure: it stays the request's error.
      const proxy = await startLoopbackProxy(own.url);
      try {
        proxy.setRest({ status: 409 });
        const other = await createRemoteWorkspace(proxy.url, { apiKey: KEY })
          .gitChanges(root)
          .catch((error: unknown) => error);
        expect(RemoteRequestError.isInstance(other)).toBe(true);
        expect(other).toMatchObject({ status: 409 });
      } finally {
        await proxy.close();
      }
    } finally {
      await own.stop();
    }
  });

  it('tell a server without the git routes, and an answer that is not the route’s', async () => {
    const notFound = createRemoteWorkspace(`${server.url}/no-such-prefix`, { apiKey: KEY });
    const missing = await notFound.gitChanges(repo).catch((error: unknown) => error);
    expect(RemoteRouteNotFoundError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toContain('the server has no git routes');

    // A base URL whose query sends every call to the commits route: a page comes back where a list was expected.
    const misrouted = createRemoteWorkspace(`${server.url}/api/git/commits?to=`, { apiKey: KEY });
    const wrongShape = await misrouted.gitChanges(repo).catch((error: unknown) => error);
    expect(RemoteRequestError.isInstance(wrongShape)).toBe(true);
    expect((wrongShape as Error).message).toContain('the answer is not what /api/git/changes returns');
  });
});
