// Every sandbox mounts the system directories (/usr, /etc, /lib…) read-only, whatever its policy. A sandboxed server
// whose data directory lies in one (an app in /usr/src/app started with `--data-dir ./data`) would let every command
// read every conversation's events and secrets and the server's keys; a workspace root in one, every other
// conversation's workspace. Start-up refuses both, also when named through a symlink; an unsandboxed server protects
// neither and starts. The directories are made under /usr/local/share (the suite runs as root, as CI does).
import { accessSync, constants } from 'node:fs';
import { mkdtemp, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, SystemDirectoryExposedError } from '../../src/index.js';
import { removeDir, tempDir } from '../helpers.js';

const SYSTEM_PARENT = '/usr/local/share';
const dirs: string[] = [];

beforeAll(() => {
  accessSync(SYSTEM_PARENT, constants.W_OK);
});
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(removeDir));
});

async function made(parent: string | undefined): Promise<string> {
  const dir = parent === undefined ? await tempDir() : await mkdtemp(join(parent, 'x-server-system-'));
  dirs.push(dir);
  return dir;
}

async function start(config: { dataDir: string; workspaceRoot?: string; unsandboxed?: boolean }): Promise<unknown> {
  return buildServer({ port: 0, logLevel: 'silent', ...config }).then(
    async (built) => {
      await built.close();
      return undefined;
    },
    (error: unknown) => error,
  );
}

describe('a sandboxed server with its data in a system directory', () => {
  it('refuses a data directory in one, naming it, the directory and what every command could read', async () => {
    const dataDir = join(await made(SYSTEM_PARENT), 'data');
    const error = await start({ dataDir, workspaceRoot: join(await made(undefined), 'workspaces') });
    expect(SystemDirectoryExposedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'system_directory_exposed', what: 'data directory', path: dataDir });
    expect((error as Error).message).toContain(`the data directory ${dataDir} lies in /usr`);
    expect((error as Error).message).toContain("every conversation's events, secrets and the server's keys");
  });

  it('refuses a workspace root in one, also named through a symlink from elsewhere', async () => {
    const dataDir = join(await made(undefined), 'data');
    const inSystem = await made(SYSTEM_PARENT);
    const link = join(await made(undefined), 'root-link');
    await symlink(inSystem, link);
    for (const workspaceRoot of [inSystem, link]) {
      const error = await start({ dataDir, workspaceRoot });
      expect(error, workspaceRoot).toMatchObject({ code: 'system_directory_exposed', what: 'workspace root' });
      expect((error as Error).message).toContain(`the workspace root ${workspaceRoot} lies in /usr`);
      expect((error as Error).message).toContain("every other conversation's workspace");
    }
  });

  it('starts unsandboxed with either there, and sandboxed with both elsewhere', async () => {
    const system = await made(SYSTEM_PARENT);
    expect(
      await start({ dataDir: join(system, 'data'), workspaceRoot: join(system, 'roots'), unsandboxed: true }),
    ).toBeUndefined();
    const elsewhere = await made(undefined);
    expect(await start({ dataDir: join(elsewhere, 'data'), workspaceRoot: join(elsewhere, 'roots') })).toBeUndefined();
  });
});
