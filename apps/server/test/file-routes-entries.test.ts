// The file routes' handling of the verified directory each request opens (`openWorkspaceEntry`) and of a workspace
// root that cannot be looked at: every directory opened is closed again, whether the request succeeded or failed
// (a server serving many downloads would otherwise run out of descriptors); and only a root that is gone (ENOENT) is
// the 409 `workspace_gone`, not one that exists but cannot be resolved (a symlink loop): that failure stands.
import { mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { openWorkspaceEntry } from '@x/agent';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { removeDir, startTestServer, type TestServer } from './helpers.js';

/** How many directories the routes opened and have not closed. */
let open = 0;

vi.mock('@x/agent', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@x/agent')>();
  return {
    ...actual,
    openWorkspaceEntry: vi.fn(async (...args: Parameters<typeof actual.openWorkspaceEntry>) => {
      const entry = await actual.openWorkspaceEntry(...args);
      open += 1;
      const { directory } = entry;
      return {
        ...entry,
        directory: {
          ...directory,
          close: async () => {
            open -= 1;
            await directory.close();
          },
        },
      };
    }),
  };
});

let server: TestServer;
let root: string;

beforeAll(async () => {
  server = await startTestServer();
  root = join(server.dataDir, 'workspaces');
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const q = (path: string) => `?path=${encodeURIComponent(path)}`;

async function download(path: string): Promise<{ status: number; body: unknown }> {
  const answer = await fetch(`${server.url}/api/file/download${q(path)}`);
  return { status: answer.status, body: answer.status === 200 ? await answer.text() : await answer.json() };
}

async function upload(path: string, text: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([text]), 'upload.txt');
  return (await fetch(`${server.url}/api/file/upload${q(path)}`, { method: 'POST', body: form })).status;
}

describe('the file routes', () => {
  it('close every directory they opened, after an upload, a download and a refused download', async () => {
    const path = join(root, 'dir', 'notes.txt');
    expect(await upload(path, 'kept')).toBe(200);
    expect(await download(path)).toEqual({ status: 200, body: 'kept' });
    await mkdir(join(root, 'dir', 'sub'));
    expect((await download(join(root, 'dir', 'sub'))).status).toBeGreaterThanOrEqual(400);
    expect(vi.mocked(openWorkspaceEntry).mock.calls.length).toBe(3);
    expect(open).toBe(0);
  });

  it('leave the failure of a root that loops as it is: it exists, so it is not gone', async () => {
    await rm(root, { recursive: true });
    await symlink(root, root);
    try {
      const path = join(root, 'notes.txt');
      expect(await download(path)).toEqual({
        status: 403,
        body: { detail: `Invalid path '${path}': it goes through a symbolic link that loops.` },
      });
    } finally {
      await rm(root);
      await mkdir(root);
    }
  });
});
