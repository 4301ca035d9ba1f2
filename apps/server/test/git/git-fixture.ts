import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach } from 'vitest';
import { removeDir, startTestServer, type TestServer } from '../helpers.js';

const run = promisify(execFile);

/**
 * git as the tests use it to build repositories: no system or user configuration of the machine, an identity given
 * in the environment (never written to any configuration), fixed dates so commits order the same under load.
 */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Test Author',
      GIT_AUTHOR_EMAIL: 'author@example.invalid',
      GIT_COMMITTER_NAME: 'Test Author',
      GIT_COMMITTER_EMAIL: 'author@example.invalid',
      GIT_AUTHOR_DATE: '2026-01-02T03:04:05+00:00',
      GIT_COMMITTER_DATE: '2026-01-02T03:04:05+00:00',
    },
  });
  return stdout;
}

/** Writes `content` at `path` under `directory`, creating its parents. */
export async function write(directory: string, path: string, content: string): Promise<void> {
  await mkdir(dirname(join(directory, path)), { recursive: true });
  await writeFile(join(directory, path), content);
}

/** A repository at `directory` on branch `main` with `files` committed as `message`. */
export async function initRepository(
  directory: string,
  files: Record<string, string>,
  message = 'initial',
): Promise<void> {
  await mkdir(directory, { recursive: true });
  await git(directory, 'init', '-q', '-b', 'main');
  await commitFiles(directory, files, message);
}

/** Writes and commits `files`. */
export async function commitFiles(directory: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [path, content] of Object.entries(files)) await write(directory, path, content);
  await git(directory, 'add', '--', ...Object.keys(files));
  await git(directory, 'commit', '-q', '-m', message);
  return (await git(directory, 'rev-parse', 'HEAD')).trim();
}

/** A server per test (real sandbox), its workspace root, and a GET of the git routes. */
export function useGitServer(): {
  start(options?: Parameters<typeof startTestServer>[0]): Promise<{ server: TestServer; root: string }>;
} {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      await server.stop();
      await removeDir(server.dataDir);
    }
  });
  return {
    async start(options = {}) {
      const server = await startTestServer(options);
      servers.push(server);
      const root = join(server.dataDir, 'workspaces');
      await mkdir(root, { recursive: true });
      return { server, root };
    },
  };
}

/** `GET <route>?<query>` against the server. */
export function query(route: string, parameters: Record<string, string | number>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(parameters)) search.set(key, String(value));
  return `${route}?${search.toString()}`;
}
