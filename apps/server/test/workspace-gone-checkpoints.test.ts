import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitForIdle } from './helpers.js';

// Navigating and forking a conversation with workspace_checkpoints restore its working directory's files, which makes
// the directory and every one above it: once the workspace root was deleted they are refused as the other routes
// refuse (409 workspace_gone), never by making the root again. Without checkpoints they touch no file and go on.
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

/** A conversation that ran one step writing made.txt (a checkpoint with it when `checkpoints`), and its events. */
async function ranConversation(checkpoints: boolean): Promise<{ id: string; directory: string; eventIds: string[] }> {
  const created = await server.call(
    'POST',
    '/api/conversations',
    createRequest(server.llm, { workspace_checkpoints: checkpoints }),
  );
  expect(created.status).toBe(201);
  const { id, workspace } = created.json as { id: string; workspace: { working_dir: string } };
  server.llm.push(
    { toolCalls: [{ name: 'terminal', arguments: { command: 'echo made > made.txt' } }] },
    finishReply('done'),
  );
  await server.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text: 'go' }], run: true });
  expect((await waitForIdle(server, id)).execution_status).toBe('finished');
  const events = await server.call('GET', `/api/conversations/${id}/events/search?limit=100`);
  return {
    id,
    directory: workspace.working_dir,
    eventIds: (events.json as { items: { id: string }[] }).items.map((event) => event.id),
  };
}

describe('navigate and fork once the workspace root was deleted', () => {
  it('answer 409 workspace_gone for a conversation with checkpoints, and make no root again', async () => {
    const { id, eventIds } = await ranConversation(true);
    const count = await server.call('GET', '/api/conversations/count');
    await rm(root, { recursive: true });
    const gone = {
      status: 409,
      json: { detail: `The server's workspace root ${root} has been deleted`, code: 'workspace_gone' },
    };

    for (const eventId of [eventIds.at(-1), eventIds[0], null]) {
      const navigated = await server.call('POST', `/api/conversations/${id}/navigate`, { event_id: eventId });
      expect({ eventId, ...navigated }).toEqual({ eventId, ...gone });
    }
    expect(await server.call('POST', `/api/conversations/${id}/fork`, {})).toEqual(gone);
    expect(await server.call('POST', `/api/conversations/${id}/fork`, { from_event_id: eventIds[0] })).toEqual(gone);
    await expect(stat(root)).rejects.toThrow('ENOENT');
    expect(await server.call('GET', '/api/conversations/count')).toEqual(count);
    // An unknown conversation is still a 404, not the root's failure.
    const unknown = await server.call('POST', '/api/conversations/0123456789abcdef0123456789abcdef/fork', {});
    expect(unknown.status).toBe(404);
  });

  it('restore the files again once whoever removed the root made it again', async () => {
    await mkdir(root, { recursive: true });
    const { id, directory, eventIds } = await ranConversation(true);
    await rm(directory, { recursive: true });
    const navigated = await server.call('POST', `/api/conversations/${id}/navigate`, { event_id: eventIds.at(-1) });
    expect(navigated.status).toBe(200);
    // The conversation's own working directory, deleted alone, is restored: that is what checkpoints are for.
    expect(await readdir(directory)).toEqual(['made.txt']);
  });

  it('go on without checkpoints, which touch no file', async () => {
    const { id, eventIds } = await ranConversation(false);
    await rm(root, { recursive: true });
    const navigated = await server.call('POST', `/api/conversations/${id}/navigate`, { event_id: eventIds[0] });
    expect(navigated.status).toBe(200);
    expect((await server.call('POST', `/api/conversations/${id}/fork`, {})).status).toBe(201);
    await expect(stat(root)).rejects.toThrow('ENOENT');
  });
});

describe('opening a conversation with checkpoints once the workspace root was deleted', () => {
  it('answers from the log without restoring its files, so the root is not made again', async () => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    const workspaces = join(dataDir, 'workspaces');
    const created = await first.call(
      'POST',
      '/api/conversations',
      createRequest(first.llm, { workspace_checkpoints: true }),
    );
    const id = (created.json as { id: string }).id;
    first.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo made > made.txt' } }] },
      finishReply('done'),
    );
    await first.call('POST', `/api/conversations/${id}/events`, { content: [{ type: 'text', text: 'go' }], run: true });
    expect((await waitForIdle(first, id)).execution_status).toBe('finished');
    await first.built.close();
    // A new server has the conversation closed: the next request opens (resumes) it.
    const again = await startTestServer({ dataDir, llm: first.llm });
    try {
      await rm(workspaces, { recursive: true });
      const info = await again.call('GET', `/api/conversations/${id}`);
      expect(info.status).toBe(200);
      expect((info.json as { execution_status: string }).execution_status).toBe('finished');
      await expect(stat(workspaces)).rejects.toThrow('ENOENT');
      const events = await again.call('GET', `/api/conversations/${id}/events/search?limit=100`);
      expect(events.status).toBe(200);
      const last = (events.json as { items: { id: string }[] }).items.at(-1)?.id;
      expect((await again.call('POST', `/api/conversations/${id}/navigate`, { event_id: last })).status).toBe(409);
      await expect(stat(workspaces)).rejects.toThrow('ENOENT');
    } finally {
      await again.stop();
      await removeDir(dataDir);
    }
  });
});
