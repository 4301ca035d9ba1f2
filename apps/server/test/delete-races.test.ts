import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startScriptedLLMServer } from '@x/agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createConversation, finishReply, removeDir, startTestServer, type TestServer, tempDir } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function entries(path: string): Promise<string[]> {
  return readdir(path).catch(() => []);
}

async function exists(path: string): Promise<boolean> {
  try {
    await readdir(path);
    return true;
  } catch {
    return false;
  }
}

/** Every request a client could make on one conversation, as [method, path, body]. */
function requestsOn(id: string): [string, string, unknown?][] {
  const text = { content: [{ type: 'text', text: 'more' }], run: true };
  return [
    ['GET', `/api/conversations/${id}`],
    ['POST', `/api/conversations/${id}/events`, text],
    ['PATCH', `/api/conversations/${id}`, { title: 'renamed' }],
    ['POST', `/api/conversations/${id}/run`],
    ['POST', `/api/conversations/${id}/pause`],
    ['POST', `/api/conversations/${id}/ask_agent`, { question: 'status?' }],
    ['POST', `/api/conversations/${id}/generate_title`, {}],
    ['POST', `/api/conversations/${id}/confirmation_policy`, { policy: { kind: 'NeverConfirm' } }],
    ['POST', `/api/conversations/${id}/events/respond_to_confirmation`, { accept: true }],
    ['POST', `/api/conversations/${id}/condense`],
    ['GET', `/api/conversations/${id}/events/search`],
    ['GET', `/api/conversations/${id}/events/count`],
    ['GET', `/api/conversations/${id}/agent_final_response`],
    ['GET', `/api/conversations?ids=${id}`],
    ['GET', '/api/conversations/search'],
    ['GET', '/api/conversations/count'],
  ];
}

describe('DELETE racing other requests', () => {
  it('answers every racing request without a 500, and the conversation stays deleted, also after a restart', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    let server: TestServer = await startTestServer({ dataDir, llm });
    const ids: string[] = [];
    try {
      for (let round = 0; round < 6; round++) {
        // A run in progress whose model answers late: its writes come after the delete.
        llm.push(
          { ...finishReply('late'), delayMs: 150 },
          ...Array.from({ length: 10 }, () => ({ ...finishReply('more'), delayMs: 20 })),
        );
        const id = await createConversation(server, { initial_message: { content: 'work' } });
        ids.push(id);
        const managed = await server.built.manager.get(id);
        const others = requestsOn(id);
        const before = others.slice(0, round * 3);
        const after = others.slice(round * 3);
        const calls = [
          ...before.map(([method, path, body]) =>
            server.call(method, path, body).then((r) => ({ method, path, ...r })),
          ),
          server.call('DELETE', `/api/conversations/${id}`).then((r) => ({ method: 'DELETE', path: id, ...r })),
          server.call('DELETE', `/api/conversations/${id}`).then((r) => ({ method: 'DELETE', path: id, ...r })),
          ...after.map(([method, path, body]) => server.call(method, path, body).then((r) => ({ method, path, ...r }))),
        ];
        const results = await Promise.all(calls);
        const failures = results.filter((result) => result.status >= 500);
        expect(failures).toEqual([]);
        const deletes = results.filter((result) => result.method === 'DELETE').map((result) => result.status);
        expect(deletes.filter((status) => status === 200)).toHaveLength(1);
        expect(deletes.every((status) => [200, 400, 409].includes(status))).toBe(true);

        // Whatever was under way (the run, meta writes) has ended; nothing recreated the directory.
        await managed?.waitForRun(60_000);
        expect((await server.call('GET', `/api/conversations/${id}`)).status).toBe(404);
        expect((await server.call('POST', `/api/conversations/${id}/run`)).status).toBe(404);
        expect(await exists(join(dataDir, 'conversations', id.replace(/-/g, '')))).toBe(false);
      }
      expect(await entries(join(dataDir, 'conversations', '.x-deleted'))).toEqual([]);
      await server.built.close();
      server = await startTestServer({ dataDir, llm });
      expect((await server.call('GET', '/api/conversations/count')).json).toBe(0);
      for (const id of ids) expect((await server.call('GET', `/api/conversations/${id}`)).status).toBe(404);
    } finally {
      await server.built.close();
      await llm.close();
    }
  });

  it('finishes at the next start a delete that was cut short after its tombstone', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const llm = await startScriptedLLMServer();
    try {
      const first = await startTestServer({ dataDir, llm });
      const kept = await createConversation(first);
      const doomed = await createConversation(first);
      await first.built.close();
      // What a crash between the tombstone and the removal leaves behind.
      const root = join(dataDir, 'conversations');
      await mkdir(join(root, '.x-deleted'), { recursive: true });
      await writeFile(join(root, '.x-deleted', doomed.replace(/-/g, '')), '{}');

      const second = await startTestServer({ dataDir, llm });
      expect((await second.call('GET', `/api/conversations/${doomed}`)).status).toBe(404);
      expect((await second.call('GET', `/api/conversations/${kept}`)).status).toBe(200);
      expect(await exists(join(root, doomed.replace(/-/g, '')))).toBe(false);
      expect(await entries(join(root, '.x-deleted'))).toEqual([]);
      await second.built.close();
    } finally {
      await llm.close();
    }
  });

  it('closes the event sockets of a deleted conversation with 4004', async () => {
    const server = await startTestServer();
    dirs.push(server.dataDir);
    try {
      const id = await createConversation(server);
      const { connectRecording } = await import('./support/socket-client.js');
      const socket = connectRecording(`${server.url.replace('http', 'ws')}/sockets/events/${id}`);
      await socket.waitFor((frames) => frames.length > 0);
      expect((await server.call('DELETE', `/api/conversations/${id}`)).status).toBe(200);
      expect((await socket.closed).code).toBe(4004);
    } finally {
      await server.stop();
    }
  });
});
