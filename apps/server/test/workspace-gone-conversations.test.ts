import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from './helpers.js';

// A workspace root deleted while the server runs: creating a conversation (which resolves its working directory under
// the root) is refused as the shell and git routes refuse, never with a 422 blaming the request, never by making the
// root again.
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

describe('creating a conversation once the workspace root was deleted', () => {
  it('answers 409 workspace_gone for the default working directory and a requested one, and leaves no root', async () => {
    await rm(root, { recursive: true, force: true });
    const gone = { detail: `The server's workspace root ${root} has been deleted`, code: 'workspace_gone' };
    for (const workspace of [undefined, { working_dir: join(root, 'project') }, { working_dir: 'sub' }]) {
      const body = createRequest(server.llm, workspace === undefined ? {} : { workspace });
      const refused = await server.call('POST', '/api/conversations', body);
      expect({ workspace, ...refused }).toEqual({ workspace, status: 409, json: gone });
      await expect(stat(root)).rejects.toThrow('ENOENT');
    }
    const listed = await server.call('GET', '/api/conversations/search');
    expect((listed.json as { items: unknown[] }).items).toEqual([]);

    // The AG-UI face creates its thread's conversation the same way: refused before any stream starts.
    const run = await server.call('POST', '/api/ag-ui', {
      threadId: randomUUID(),
      runId: randomUUID(),
      messages: [{ id: randomUUID(), role: 'user', content: 'hello' }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: { conversation: createRequest(server.llm) },
    });
    expect(run).toEqual({ status: 409, json: gone });
    await expect(stat(root)).rejects.toThrow('ENOENT');
  });

  it('creates conversations again once whoever removed the root made it again', async () => {
    await mkdir(root, { recursive: true });
    const created = await server.call('POST', '/api/conversations', createRequest(server.llm));
    expect(created.status).toBe(201);
    const { id } = created.json as { id: string };
    expect(await readdir(root)).toEqual([id.replaceAll('-', '')]);
  });
});
