import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitForIdle,
} from './helpers.js';

// A workspace root deleted while the server runs: a run would pay for model calls whose tools, working in a directory
// under the root, can only fail. Starting one is refused (409 workspace_gone) before the model is asked anything, and a
// message sent with `run` is refused before it is recorded.
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

const eventCount = async (id: string): Promise<number> => {
  const page = await server.call('GET', `/api/conversations/${id}/events/count`);
  return page.json as number;
};

describe('runs once the workspace root was deleted', () => {
  it('refuses a run and a message with run, asking the model nothing and recording nothing', async () => {
    const id = await createConversation(server);
    const before = await eventCount(id);
    const asked = server.llm.requests.length;
    await rm(root, { recursive: true, force: true });
    const gone = { detail: `The server's workspace root ${root} has been deleted`, code: 'workspace_gone' };

    expect(await server.call('POST', `/api/conversations/${id}/run`)).toEqual({ status: 409, json: gone });
    const message = { role: 'user', content: [{ type: 'text', text: 'go on' }], run: true };
    expect(await server.call('POST', `/api/conversations/${id}/events`, message)).toEqual({ status: 409, json: gone });

    expect(await eventCount(id)).toBe(before);
    expect(server.llm.requests.length).toBe(asked);
    await expect(stat(root)).rejects.toThrow('ENOENT');
    // A message without `run` is still recorded: the log needs no workspace.
    const recorded = await server.call('POST', `/api/conversations/${id}/events`, { ...message, run: false });
    expect(recorded.status).toBe(200);
    expect(await eventCount(id)).toBe(before + 1);
  });

  it('runs again once the root is back', async () => {
    await mkdir(root, { recursive: true });
    const id = await createConversation(server);
    server.llm.push(finishReply('done'));
    const asked = server.llm.requests.length;
    expect((await server.call('POST', `/api/conversations/${id}/run`)).status).toBe(200);
    expect(await waitForIdle(server, id)).toMatchObject({ execution_status: 'finished' });
    expect(server.llm.requests.length).toBe(asked + 1);
  });
});
