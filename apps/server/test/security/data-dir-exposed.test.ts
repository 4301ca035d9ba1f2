// The server's data directory holds every conversation's events, meta.json (its sandbox policy, its secrets
// encrypted) and the server's own state; no sandbox may see it. The workspace routes and a conversation's working
// directory reach every path of the workspace root, so a root that holds the data directory (`--workspace-root ~`
// with the default `~/.x/server`) would hand it to any sandboxed agent asked to work in the root, and to the file
// routes: the server refuses to start with one.
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, DataDirExposedError } from '../../src/index.js';
import { removeDir, tempDir } from '../helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(removeDir));
});

async function home(): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  return dir;
}

async function refusal(config: { dataDir: string; workspaceRoot?: string }): Promise<unknown> {
  return buildServer({ port: 0, logLevel: 'silent', ...config }).then(
    async (built) => {
      await built.close();
      return undefined;
    },
    (error: unknown) => error,
  );
}

describe('a workspace root around the data directory', () => {
  it('is refused when it holds the data directory, is it, or lies inside its conversation store', async () => {
    const root = await home();
    for (const [dataDir, workspaceRoot, how] of [
      [join(root, '.x', 'server'), root, 'holds'],
      [root, root, 'is'],
      [root, join(root, 'conversations', 'projects'), 'lies inside the conversation store of'],
      [root, join(root, 'conversations'), 'lies inside the conversation store of'],
    ] as const) {
      const error = await refusal({ dataDir, workspaceRoot });
      expect(DataDirExposedError.isInstance(error), `${workspaceRoot} / ${dataDir}`).toBe(true);
      expect((error as Error).message).toContain(
        `the workspace root ${workspaceRoot} ${how} the data directory ${dataDir}`,
      );
      expect(error).toMatchObject({ code: 'data_dir_exposed', dataDir, workspaceRoot });
    }
  });

  it('is refused when it holds the data directory through a symlink, either way', async () => {
    const root = await home();
    const elsewhere = await home();
    await mkdir(join(root, 'projects'));
    // The data directory named through a link into the root, and the root named through a link to the data's parent.
    await symlink(join(root, 'projects'), join(elsewhere, 'link-into-root'));
    await symlink(root, join(elsewhere, 'link-to-root'));
    for (const [dataDir, workspaceRoot] of [
      [join(elsewhere, 'link-into-root', 'x-data'), root],
      [join(root, 'x-data'), join(elsewhere, 'link-to-root')],
    ] as const) {
      expect(DataDirExposedError.isInstance(await refusal({ dataDir, workspaceRoot })), dataDir).toBe(true);
    }
  });

  it('starts with the default root inside the data directory, a root beside its store, or apart from it', async () => {
    const root = await home();
    const elsewhere = await home();
    for (const config of [
      { dataDir: join(root, 'data') },
      { dataDir: join(root, 'data'), workspaceRoot: join(root, 'data', 'projects') },
      { dataDir: join(root, 'data'), workspaceRoot: elsewhere },
      // A sibling whose name starts like the data directory's is not inside it.
      { dataDir: join(root, 'data'), workspaceRoot: join(root, 'data-workspaces') },
    ]) {
      expect(await refusal(config), JSON.stringify(config)).toBeUndefined();
    }
  });
});
