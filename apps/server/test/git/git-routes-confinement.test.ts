import { execFile } from 'node:child_process';
import { mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openDefaultSandbox, type SandboxSupport } from '@x/agent';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers.js';
import { git, initRepository, query, useGitServer, write } from './git-fixture.js';

const servers = useGitServer();
const outsideDirs: string[] = [];
afterEach(async () => {
  for (const dir of outsideDirs.splice(0)) await removeDir(dir);
});

async function outsideRepository(): Promise<string> {
  const dir = await tempDir();
  outsideDirs.push(dir);
  const repo = join(dir, 'secret-repo');
  await initRepository(repo, { 'secret.txt': 'outside the workspace\n' });
  await write(repo, 'secret.txt', 'changed outside\n');
  return repo;
}

function missingBwrapProbe(): Promise<SandboxSupport> {
  return new Promise((resolve) => {
    execFile('/nonexistent/bwrap', ['--version'], (error) => {
      resolve({ available: false, reason: `bubblewrap could not run: ${error?.message ?? 'no error'}` });
    });
  });
}

describe('the git routes', () => {
  it('need the session key like every /api route', async () => {
    const { server, root } = await servers.start({ config: { apiKeys: ['git-key'] } });
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });
    for (const route of ['/api/git/changes', '/api/git/diff', '/api/git/commits', '/api/git/commits/abcd/changes']) {
      const refused = await server.call('GET', query(route, { path: join(repo, 'a.txt') }));
      expect({ route, status: refused.status }).toEqual({ route, status: 401 });
    }
    const allowed = await server.call('GET', query('/api/git/changes', { path: repo }), undefined, {
      'X-Session-API-Key': 'git-key',
    });
    expect(allowed).toEqual({ status: 200, json: [] });
  });

  it('refuse a path outside the workspace root, also through a symlink (403), and a relative one (400)', async () => {
    const { server, root } = await servers.start();
    const outside = await outsideRepository();
    await symlink(outside, join(root, 'link-out'));
    const attempts = [
      query('/api/git/changes', { path: outside }),
      query('/api/git/changes', { path: join(root, 'link-out') }),
      query('/api/git/diff', { path: join(root, 'link-out', 'secret.txt') }),
      query('/api/git/commits', { path: join(root, '..', '..', outside) }),
      query('/api/git/commits/abcd/changes', { path: outside }),
    ];
    for (const attempt of attempts) {
      const refused = await server.call('GET', attempt);
      expect({ attempt, status: refused.status }).toEqual({ attempt, status: 403 });
    }
    expect((await server.call('GET', query('/api/git/changes', { path: 'repo' }))).status).toBe(400);
  });

  it('refuse a ref that starts with `-` before git sees it (400), so it cannot become an option', async () => {
    const { server, root } = await servers.start();
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });
    const written = join(root, 'written-by-option.txt');
    for (const route of ['/api/git/changes', '/api/git/diff']) {
      const path = route === '/api/git/diff' ? join(repo, 'a.txt') : repo;
      const refused = await server.call('GET', query(route, { path, ref: `--output=${written}` }));
      expect(refused).toEqual({
        status: 400,
        json: { detail: `ref '--output=${written}' starts with '-': a ref must name a revision, not an option` },
      });
    }
    expect(await stat(written).catch(() => 'absent')).toBe('absent');
  });

  it('run git in the server sandbox of the workspace root, which cannot see a repository outside it', async () => {
    const opened: string[] = [];
    const commands: string[] = [];
    const { server, root } = await servers.start({
      build: {
        openSandbox: async (request) => {
          opened.push(request.workspace);
          const sandbox = await openDefaultSandbox(request);
          const prepare = sandbox.prepare.bind(sandbox);
          sandbox.prepare = async (command) => {
            commands.push(command.command);
            return prepare(command);
          };
          return sandbox;
        },
      },
    });
    const outside = await outsideRepository();
    // A work tree whose `.git` file points at a repository outside the workspace: git on the host would read it.
    const decoy = join(root, 'decoy');
    await mkdir(decoy);
    await writeFile(join(decoy, '.git'), `gitdir: ${join(outside, '.git')}\n`);
    expect((await git(decoy, 'status', '--porcelain')).length).toBeGreaterThan(0);

    expect(await server.call('GET', query('/api/git/changes', { path: decoy, ref: 'HEAD' }))).toEqual({
      status: 200,
      json: [],
    });
    expect(opened).toEqual([join(server.dataDir, 'workspaces')]);
    expect(commands.length).toBeGreaterThan(0);
    expect(new Set(commands)).toEqual(new Set(['git']));
  });

  it('are refused with 503 when no sandbox is available and the server was not started --unsandboxed', async () => {
    const { server, root } = await servers.start({ build: { sandboxProbe: missingBwrapProbe } });
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });
    const refused = await server.call('GET', query('/api/git/changes', { path: repo }));
    expect(refused.status).toBe(503);
    expect((refused.json as { code: string }).code).toBe('sandbox_required');
  });

  it('run git on the host, still hardened, when the operator chose --unsandboxed', async () => {
    const { server, root } = await servers.start({
      build: { sandboxProbe: missingBwrapProbe },
      config: { unsandboxed: true },
    });
    const repo = join(root, 'repo');
    await initRepository(repo, { 'a.txt': 'a\n' });
    await write(repo, 'a.txt', 'b\n');
    expect(await server.call('GET', query('/api/git/changes', { path: repo, ref: 'HEAD' }))).toEqual({
      status: 200,
      json: [{ status: 'UPDATED', path: 'a.txt' }],
    });
  });
});
